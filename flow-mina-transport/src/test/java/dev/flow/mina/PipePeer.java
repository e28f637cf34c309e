package dev.flow.mina;

import dev.flow.TransportContractTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.future.WriteFuture;
import org.apache.mina.core.service.IoHandlerAdapter;
import org.apache.mina.core.session.IoSession;

/**
 * The far end of an in-VM pipe: the raw acceptor-side {@link IoSession}. Every write is delivered to
 * the transport as its own {@code messageReceived}. A pipe has neither half-close nor reset: {@link
 * #shutdownOutput()} closes the pipe after the written bytes, and {@link #reset()} replays what MINA
 * does on a TCP reset (an {@code IOException} through {@code exceptionCaught}, then the close).
 */
final class PipePeer implements TransportContractTest.Peer {

    /** The acceptor's handler: hands out accepted sessions and collects what they receive. */
    static final class Handler extends IoHandlerAdapter {
        final BlockingQueue<PipePeer> accepted = new LinkedBlockingQueue<>();

        @Override
        public void sessionCreated(IoSession session) {
            PipePeer p = new PipePeer(session);
            session.setAttribute(PipePeer.class, p);
            accepted.add(p);
        }

        @Override
        public void messageReceived(IoSession session, Object message) {
            ((PipePeer) session.getAttribute(PipePeer.class)).received((IoBuffer) message);
        }

        @Override
        public void sessionClosed(IoSession session) {
            ((PipePeer) session.getAttribute(PipePeer.class)).closed();
        }

        PipePeer take() throws InterruptedException {
            PipePeer p = accepted.poll(5, TimeUnit.SECONDS);
            if (p == null) {
                throw new AssertionError("no session accepted within 5 s");
            }
            return p;
        }
    }

    private final IoSession session;
    private final ByteArrayOutputStream inbox = new ByteArrayOutputStream();
    private boolean closed;
    private MinaTransport transport;

    private PipePeer(IoSession session) {
        this.session = session;
    }

    PipePeer transport(MinaTransport t) {
        this.transport = t;
        return this;
    }

    IoSession session() {
        return session;
    }

    private synchronized void received(IoBuffer b) {
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        inbox.write(bytes, 0, bytes.length);
        notifyAll();
    }

    private synchronized void closed() {
        closed = true;
        notifyAll();
    }

    @Override
    public void write(byte[] bytes) throws IOException {
        WriteFuture f = session.write(IoBuffer.wrap(bytes.clone()));
        if (!f.awaitUninterruptibly(5000) || !f.isWritten()) {
            throw new IOException("peer write failed", f.getException());
        }
    }

    @Override
    public synchronized byte[] readExactly(int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (inbox.size() < n) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || closed) {
                throw new AssertionError("expected " + n + " bytes, got " + inbox.size() + (closed ? " and end of stream" : ""));
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        byte[] all = inbox.toByteArray();
        inbox.reset();
        inbox.write(all, n, all.length - n);
        return Arrays.copyOf(all, n);
    }

    @Override
    public synchronized void awaitEndOfStream() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!closed) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("expected end of stream within 5 s");
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        if (inbox.size() > 0) {
            throw new AssertionError("expected end of stream, got " + inbox.size() + " more bytes");
        }
    }

    @Override
    public void shutdownOutput() {
        session.closeOnFlush();
    }

    @Override
    public void reset() {
        transport.session().getFilterChain().fireExceptionCaught(new IOException("Connection reset by peer (simulated)"));
        session.closeNow();
    }

    @Override
    public void close() {
        session.closeNow();
    }
}
