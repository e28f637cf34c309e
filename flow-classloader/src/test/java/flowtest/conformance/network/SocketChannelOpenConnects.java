package flowtest.conformance.network;

import flowtest.support.JdkChannels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Callable;

/** {@code SocketChannel.open(SocketAddress)} connects a blocking channel inside the JDK: reported. */
public final class SocketChannelOpenConnects implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (ServerSocketChannel server = JdkChannels.listen(); SocketChannel ch = SocketChannel.open(server.getLocalAddress())) {
            return "connected " + ch.isConnected();
        }
    }
}
