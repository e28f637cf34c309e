package dev.flow;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;

/**
 * The far end of a TCP connection under the transport contract: a plain {@link Socket} with bounded
 * (5 s) reads. Subclasses may wait after each write, e.g. until the transport has read the bytes.
 */
public class PlainSocketPeer implements TransportContractTest.Peer {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    /** Wraps a connected socket. */
    public PlainSocketPeer(Socket socket) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(5000);
        socket.setTcpNoDelay(true);
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /** The socket. */
    public Socket socket() {
        return socket;
    }

    @Override
    public void write(byte[] bytes) throws Exception {
        out.write(bytes);
        out.flush();
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
