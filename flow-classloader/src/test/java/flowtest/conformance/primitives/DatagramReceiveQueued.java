package flowtest.conformance.primitives;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.concurrent.Callable;

/** {@code DatagramSocket.receive} of a datagram already sent: receive waits inside the JDK, reported whether or not it would wait. */
public final class DatagramReceiveQueued implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (DatagramSocket receiver = new DatagramSocket(0, loopback); DatagramSocket sender = new DatagramSocket(0, loopback)) {
            receiver.setSoTimeout(5000);
            sender.send(new DatagramPacket(new byte[] {3}, 1, loopback, receiver.getLocalPort()));
            DatagramPacket got = new DatagramPacket(new byte[4], 4);
            receiver.receive(got);
            return got.getLength() + " byte " + got.getData()[0];
        }
    }
}
