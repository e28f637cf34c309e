package flowtest.conformance.network;

import flowtest.support.JdkChannels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Callable;

/**
 * {@code finishConnect} of a channel put back in blocking mode after a non-blocking {@code connect} (which
 * returns at once, not reported): it waits for the connection inside the JDK, reported.
 */
public final class SocketChannelFinishConnectBlocking implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (ServerSocketChannel server = JdkChannels.listen(); SocketChannel ch = SocketChannel.open()) {
            ch.configureBlocking(false);
            ch.connect(server.getLocalAddress());
            ch.configureBlocking(true);
            return "finished " + ch.finishConnect();
        }
    }
}
