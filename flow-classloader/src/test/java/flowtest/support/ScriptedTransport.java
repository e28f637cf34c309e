package flowtest.support;

import dev.flow.LineTerminator;
import dev.flow.TransportConfig;
import dev.flow.internal.Waits;
import dev.flow.spi.AsyncTransport;
import dev.flow.spi.Awaitable;
import java.io.IOException;
import java.net.SocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * An {@link AsyncTransport} whose input is a script of lines, each delivered from another thread
 * only after the reader has registered its wake-up (so every read really suspends), optionally ending with an {@link IOException}; written lines are recorded.
 */
public final class ScriptedTransport implements AsyncTransport {

    private static final Executor LATER = Async.delayed(200, TimeUnit.MICROSECONDS);

    private final ArrayDeque<String> script;
    private final IOException failure;
    private final ArrayDeque<String> arrived = new ArrayDeque<>();
    private final List<String> written = new ArrayList<>();
    private CompletableFuture<Void> ready = new CompletableFuture<>();
    private boolean closed;
    private boolean pending;
    private IOException failed;

    public ScriptedTransport(List<String> lines, IOException failure) {
        this.script = new ArrayDeque<>(lines);
        this.failure = failure;
    }

    private void deliverNext() {
        LATER.execute(() -> {
            CompletableFuture<Void> r;
            synchronized (this) {
                String next = script.poll();
                if (next != null) {
                    arrived.add(next);
                } else if (failure != null) {
                    failed = failure;
                } else {
                    closed = true;
                }
                pending = false;
                r = ready;
            }
            r.complete(null);
        });
    }

    @Override
    public synchronized String pollLine(LineTerminator terminator, int maxLength) throws IOException {
        String l = arrived.poll();
        if (l == null && failed != null) {
            throw failed;
        }
        return l;
    }

    @Override
    public int pollRead(byte[] dst, int off, int len) {
        throw new UnsupportedOperationException();
    }

    @Override
    public synchronized boolean isInputClosed() {
        return arrived.isEmpty() && (closed || failed != null);
    }

    @Override
    public synchronized Awaitable inputReady() {
        if (!arrived.isEmpty() || closed || failed != null) {
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

    /** The next event is sent only once the reader has registered its wake-up: every read suspends. */
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
    public synchronized Awaitable writeLineAsync(String line) {
        written.add(line);
        return DONE;
    }

    @Override
    public Awaitable writeAsync(byte[] src, int off, int len) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Awaitable flushAsync() {
        return DONE;
    }

    @Override
    public void checkWrite(Awaitable write) {
    }

    @Override
    public String readLine() throws IOException {
        for (;;) {
            String l = pollLine();
            if (l != null || isInputClosed()) {
                return l;
            }
            Waits.block(inputReady(), 0);
        }
    }

    @Override
    public String readLine(LineTerminator terminator, int maxLength) throws IOException {
        return readLine();
    }

    @Override
    public int read(byte[] dst, int off, int len) {
        throw new UnsupportedOperationException();
    }

    @Override
    public synchronized void writeLine(String line) {
        written.add(line);
    }

    @Override
    public void write(byte[] src, int off, int len) {
        throw new UnsupportedOperationException();
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

    /** Lines written so far. */
    public synchronized List<String> written() {
        return new ArrayList<>(written);
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
