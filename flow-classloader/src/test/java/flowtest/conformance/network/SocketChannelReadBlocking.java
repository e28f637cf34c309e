package flowtest.conformance.network;

import flowtest.support.JdkChannels;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Callable;

/** {@code read} of a blocking {@code SocketChannel} (through {@code ReadableByteChannel}): it waits inside the JDK, reported. */
public final class SocketChannelReadBlocking implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (ServerSocketChannel server = JdkChannels.listen(); SocketChannel ch = JdkChannels.connect(server);
                SocketChannel peer = JdkChannels.accept(server)) {
            JdkChannels.write(peer, new byte[] {7});
            ReadableByteChannel in = ch;
            ByteBuffer b = ByteBuffer.allocate(4);
            int n = in.read(b);
            return n + " byte " + b.get(0);
        }
    }
}
