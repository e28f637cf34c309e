package dev.flow.mina;

import dev.flow.PlainSocketPeer;
import java.io.IOException;
import java.net.Socket;

/**
 * The far end of a TCP connection: a plain socket with bounded reads. With {@code
 * waitForReceipt}, each write waits until MINA has read the bytes, so each byte arrives in its own
 * {@code messageReceived}.
 */
final class SocketPeer extends PlainSocketPeer {

    private final MinaTransport transport;
    private final boolean waitForReceipt;
    private long sent;

    SocketPeer(Socket socket, MinaTransport transport, boolean waitForReceipt) throws IOException {
        super(socket);
        this.transport = transport;
        this.waitForReceipt = waitForReceipt;
        this.sent = transport.session().getReadBytes();
    }

    @Override
    public void write(byte[] bytes) throws Exception {
        super.write(bytes);
        sent += bytes.length;
        if (waitForReceipt) {
            long target = sent;
            Conditions.await("MINA to read " + target + " bytes", () -> transport.session().getReadBytes() >= target,
                    () -> "(read " + transport.session().getReadBytes() + ")");
        }
    }
}
