package flowtest.support;

import dev.flow.LineTerminator;
import dev.flow.TransportConfig;
import dev.flow.internal.UninstrumentedWaits;
import dev.flow.spi.AsyncTransport;
import dev.flow.spi.Awaitable;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * An {@link AsyncTransport} whose input is a script of byte chunks, each delivered from another thread
 * only after the reader has registered its wake-up, so a read that finds nothing buffered really
 * waits (a flow suspends; a blocking read in a flow, reached through an uninstrumented frame, is reported as
 * a pinned wait like a real transport's); writes collect in memory. Used by one thread or flow at a time.
 */
public final class ChunkedTransport implements AsyncTransport {

    private static final Executor LATER = Async.delayed(100, TimeUnit.MICROSECONDS);

    private final ArrayDeque<byte[]> script;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private byte[] arrived = new byte[0];
    private int pos;
    private boolean ended;
    private boolean pending;
    private CompletableFuture<Void> ready = new CompletableFuture<>();

    /** Input delivered in {@code chunks}, then end of stream. */
    public ChunkedTransport(List<byte[]> chunks) {
        this.script = new ArrayDeque<>(chunks);
    }

    /** Input {@code input}, delivered {@code chunk} bytes at a time. */
    public static ChunkedTransport of(byte[] input, int chunk) {
        java.util.List<byte[]> chunks = new java.util.ArrayList<>();
        for (int i = 0; i < input.length; i += chunk) {
            chunks.add(java.util.Arrays.copyOfRange(input, i, Math.min(input.length, i + chunk)));
        }
        return new ChunkedTransport(chunks);
    }

    private synchronized int buffered() {
        return arrived.length - pos;
    }

    private void deliverNext() {
        LATER.execute(() -> {
            CompletableFuture<Void> r;
            synchronized (this) {
                byte[] next = script.poll();
                if (next == null) {
                    ended = true;
                } else {
                    byte[] joined = java.util.Arrays.copyOfRange(arrived, pos, arrived.length + next.length);
                    System.arraycopy(next, 0, joined, arrived.length - pos, next.length);
                    arrived = joined;
                    pos = 0;
                }
                pending = false;
                r = ready;
            }
            r.complete(null);
        });
    }

    @Override
    public String pollLine(LineTerminator terminator, int maxLength) {
        throw new UnsupportedOperationException("line reads: use the stream views");
    }

    @Override
    public synchronized int pollRead(byte[] dst, int off, int len) {
        int n = Math.min(len, arrived.length - pos);
        if (n == 0) {
            return ended && len > 0 ? -1 : 0;
        }
        System.arraycopy(arrived, pos, dst, off, n);
        pos += n;
        return n;
    }

    @Override
    public synchronized boolean isInputClosed() {
        return ended && pos == arrived.length;
    }

    @Override
    public synchronized Awaitable inputReady() {
        if (pos < arrived.length || ended) {
            return DONE;
        }
        if (ready.isDone()) {
            ready = new CompletableFuture<>();
        }
        CompletableFuture<Void> r = ready;
        return new Awaitable() {
            @Override
            public boolean isDone() {
                return r.isDone();
            }

            @Override
            public void whenDone(Runnable action) {
                r.whenComplete((v, t) -> action.run());
                requestDelivery();
            }
        };
    }

    private void requestDelivery() {
        synchronized (this) {
            if (pending) {
                return;
            }
            pending = true;
        }
        deliverNext();
    }

    @Override
    public int available() {
        return buffered();
    }

    @Override
    public int read(byte[] dst, int off, int len) throws IOException {
        for (;;) {
            int n = pollRead(dst, off, len);
            if (n != 0 || len == 0) {
                return n;
            }
            Awaitable r = inputReady();
            if (!r.isDone()) {
                UninstrumentedWaits.onBlockingWait();
                CompletableFuture<Void> done = new CompletableFuture<>();
                r.whenDone(() -> done.complete(null));
                done.join();
            }
        }
    }

    @Override
    public String readLine() {
        throw new UnsupportedOperationException("line reads: use the stream views");
    }

    @Override
    public String readLine(LineTerminator terminator, int maxLength) {
        throw new UnsupportedOperationException("line reads: use the stream views");
    }

    @Override
    public synchronized Awaitable writeLineAsync(String line) {
        out.writeBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
        return DONE;
    }

    @Override
    public synchronized Awaitable writeAsync(byte[] src, int off, int len) {
        out.write(src, off, len);
        return DONE;
    }

    @Override
    public Awaitable flushAsync() {
        return DONE;
    }

    @Override
    public void checkWrite(Awaitable write) {
    }

    @Override
    public synchronized void writeLine(String line) {
        writeLineAsync(line);
    }

    @Override
    public synchronized void write(byte[] src, int off, int len) {
        out.write(src, off, len);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }

    @Override
    public SocketAddress remoteAddress() {
        return null;
    }

    @Override
    public TransportConfig config() {
        return TransportConfig.DEFAULT;
    }

    /** The bytes written so far. */
    public synchronized byte[] written() {
        return out.toByteArray();
    }

    private static final Awaitable DONE = new Awaitable() {
        @Override
        public boolean isDone() {
            return true;
        }

        @Override
        public void whenDone(Runnable action) {
            action.run();
        }
    };
}
