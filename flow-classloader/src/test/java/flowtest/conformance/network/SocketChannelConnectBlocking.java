package flowtest.conformance.network;

import flowtest.support.JdkChannels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Callable;

/** {@code connect} of a blocking {@code SocketChannel}: it waits inside the JDK, reported. */
public final class SocketChannelConnectBlocking implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (ServerSocketChannel server = JdkChannels.listen(); SocketChannel ch = SocketChannel.open()) {
            boolean connected = ch.connect(server.getLocalAddress());
            return "connected " + connected;
        }
    }
}
