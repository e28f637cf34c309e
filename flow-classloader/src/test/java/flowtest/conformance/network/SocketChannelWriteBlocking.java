package flowtest.conformance.network;

import flowtest.support.JdkChannels;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Callable;

/** {@code write(ByteBuffer[])} of a blocking {@code SocketChannel}: it waits for room inside the JDK, reported. */
public final class SocketChannelWriteBlocking implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (ServerSocketChannel server = JdkChannels.listen(); SocketChannel ch = JdkChannels.connect(server);
                SocketChannel peer = JdkChannels.accept(server)) {
            long n = ch.write(new ByteBuffer[] {ByteBuffer.wrap(new byte[] {1, 2}), ByteBuffer.wrap(new byte[] {3})});
            return n + " bytes";
        }
    }
}
