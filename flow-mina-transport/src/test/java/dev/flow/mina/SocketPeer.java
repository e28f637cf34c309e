package dev.flow.mina;

import dev.flow.TransportContractTest;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;

/**
 * The far end of a TCP connection: a plain {@link Socket} with bounded reads. With {@code
 * oneAtATime}, each write waits until MINA has read the bytes, so each byte arrives in its own
 * {@code messageReceived}.
 */
final class SocketPeer implements TransportContractTest.Peer {

    private final Socket socket;
    private final MinaTransport transport;
    private final boolean waitForReceipt;
    private final InputStream in;
    private final OutputStream out;
    private long sent;

    SocketPeer(Socket socket, MinaTransport transport, boolean waitForReceipt) throws IOException {
        this.socket = socket;
        this.transport = transport;
        this.waitForReceipt = waitForReceipt;
        socket.setSoTimeout(5000);
        socket.setTcpNoDelay(true);
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.sent = transport.session().getReadBytes();
    }

    Socket socket() {
        return socket;
    }

    @Override
    public void write(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        sent += bytes.length;
        if (waitForReceipt) {
            long target = sent;
            Conditions.await("MINA to read " + target + " bytes", () -> transport.session().getReadBytes() >= target,
                    () -> "(read " + transport.session().getReadBytes() + ")");
        }
    }

    @Override
    public byte[] readExactly(int n) throws IOException {
        byte[] b = new byte[n];
        new DataInputStream(in).readFully(b);
        return b;
    }

    @Override
    public void awaitEndOfStream() throws IOException {
        int b = in.read();
        if (b != -1) {
            throw new AssertionError("expected end of stream, got byte " + b);
        }
    }

    @Override
    public void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    @Override
    public void reset() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
