package flowtest.conformance.network;

import flowtest.support.JdkChannels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Callable;

/** {@code accept} of a blocking {@code ServerSocketChannel} (a connection already queued): it waits inside the JDK, reported. */
public final class ServerSocketChannelAcceptBlocking implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (ServerSocketChannel server = JdkChannels.listen(); SocketChannel ch = JdkChannels.connect(server);
                SocketChannel accepted = server.accept()) {
            return "accepted " + accepted.isConnected();
        }
    }
}
