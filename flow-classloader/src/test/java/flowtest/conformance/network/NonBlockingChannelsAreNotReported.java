package flowtest.conformance.network;

import flowtest.support.JdkChannels;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Callable;

/**
 * The same calls on channels in non-blocking mode return at once, and are not reported: accept with
 * nothing queued, connect, write and read of a socket channel, a datagram channel's receive, a pipe's read.
 */
public final class NonBlockingChannelsAreNotReported implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (ServerSocketChannel server = JdkChannels.listen(); SocketChannel ch = SocketChannel.open();
                DatagramChannel datagram = JdkChannels.datagram()) {
            server.configureBlocking(false);
            SocketChannel none = server.accept();
            ch.configureBlocking(false);
            ch.connect(server.getLocalAddress());
            datagram.configureBlocking(false);
            Object received = datagram.receive(ByteBuffer.allocate(1));
            Pipe pipe = Pipe.open();
            pipe.source().configureBlocking(false);
            int piped = pipe.source().read(ByteBuffer.allocate(1));
            pipe.sink().close();
            pipe.source().close();
            return "accepted " + none + ", received " + received + ", piped " + piped;
        }
    }
}
