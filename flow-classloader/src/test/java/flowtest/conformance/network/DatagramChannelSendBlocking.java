package flowtest.conformance.network;

import flowtest.support.JdkChannels;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.Callable;

/** {@code send} of a blocking {@code DatagramChannel}: it can wait for room inside the JDK, reported. */
public final class DatagramChannelSendBlocking implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (DatagramChannel receiver = JdkChannels.datagram(); DatagramChannel sender = JdkChannels.datagram()) {
            return "sent " + sender.send(ByteBuffer.wrap(new byte[] {1, 2}), receiver.getLocalAddress());
        }
    }
}
