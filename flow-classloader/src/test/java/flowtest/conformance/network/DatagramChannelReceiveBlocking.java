package flowtest.conformance.network;

import flowtest.support.JdkChannels;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.Callable;

/** {@code receive} of a blocking {@code DatagramChannel} (a datagram already sent): it waits inside the JDK, reported. */
public final class DatagramChannelReceiveBlocking implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (DatagramChannel receiver = JdkChannels.datagram(); DatagramChannel sender = JdkChannels.datagram()) {
            JdkChannels.send(sender, receiver, new byte[] {9});
            ByteBuffer b = ByteBuffer.allocate(4);
            boolean from = receiver.receive(b) != null;
            return "from " + from + ", " + b.position() + " byte " + b.get(0);
        }
    }
}
