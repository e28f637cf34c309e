package dev.flow.internal;

import dev.flow.Transport;
import dev.flow.spi.AsyncTransport;
import dev.flow.spi.Awaitable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The {@link OutputStream} view of a {@link Transport} ({@link Transport#outputStream()}): writes
 * go to {@link Transport#write}, {@code flush()} is {@link Transport#flush()}, {@code close()}
 * closes the transport.
 *
 * <p>Suspends and blocks like {@link TransportInputStream}. Each {@code write(int)} is a transport
 * write of one byte; write arrays. Used by one flow or thread at a time, like the transport.
 */
public final class TransportOutputStream extends OutputStream {

    /** The writes deferred on this thread, while {@link Awaits#writeDecorated} runs a JDK decorator's write. */
    private static final ThreadLocal<Deferred> DEFERRED = new ThreadLocal<>();
    private static final StackWalker WALKER = StackWalker.getInstance();
    /**
     * The JDK output streams that pass a write or flush down and let its exception through unchanged (no
     * {@code PrintStream}, which keeps it for {@code checkError()}): a wait moved past their call is still
     * thrown to the same caller.
     */
    private static final Set<String> PASS_THROUGH = Set.of("java.io.DataOutputStream", "java.io.BufferedOutputStream",
            "java.io.FilterOutputStream", "java.io.OutputStream", TransportOutputStream.class.getName());

    private static final String FLOW_DATA = "dev.flow.jdk.FlowData";

    private final Transport transport;

    /** Creates the view of {@code transport}. */
    public TransportOutputStream(Transport transport) {
        this.transport = Objects.requireNonNull(transport, "transport");
    }

    /** The transport this stream writes. */
    public Transport transport() {
        return transport;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Deferred d = DEFERRED.get();
        if (d != null && d.takes(transport)) {
            AsyncTransport a = (AsyncTransport) transport;
            d.add(a, a.writeAsync(b, off, len));
            return;
        }
        UninstrumentedWaits.onViewCall();
        transport.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
        Deferred d = DEFERRED.get();
        if (d != null && d.takes(transport)) {
            AsyncTransport a = (AsyncTransport) transport;
            d.add(a, a.flushAsync());
            return;
        }
        UninstrumentedWaits.onViewCall();
        transport.flush();
    }

    /**
     * Starts deferring, on this thread, the waits of the writes and flushes that reach a view of an {@link
     * AsyncTransport} through JDK streams that let exceptions through ({@code DataOutputStream}, {@code
     * BufferedOutputStream}, {@code FilterOutputStream}): each is queued as {@code Transport.write/flush}
     * queues it, and its completion is kept for {@link Deferred#next()} instead of being waited for inside
     * the JDK's frames. Ends with {@link #stopDeferring(Deferred)}. Public only because each class loader's
     * copy of {@code Awaits} calls it.
     */
    public static Deferred deferWrites() {
        Deferred d = new Deferred(DEFERRED.get());
        DEFERRED.set(d);
        return d;
    }

    /** Ends {@link #deferWrites()} {@code d} on this thread: the deferring it replaced, if any, goes on. */
    public static void stopDeferring(Deferred d) {
        if (d.outer == null) {
            DEFERRED.remove();
        } else {
            DEFERRED.set(d.outer);
        }
    }

    /**
     * The completions of deferred writes and flushes, in the order they were queued. Confined to one thread.
     * Public only because each class loader's copy of {@code Awaits} uses it.
     */
    public static final class Deferred {
        private final List<Object[]> writes = new ArrayList<>(2);
        private final Deferred outer;
        private int next;

        Deferred(Deferred outer) {
            this.outer = outer;
        }

        /**
         * Whether a write or flush of a view of {@code t} reached now may be deferred: {@code t} queues writes
         * ({@link AsyncTransport}) and only pass-through JDK streams lie between the view and the caller of
         * {@link #deferWrites()} ({@code Awaits} or {@code FlowData}, which make the JDK decorator's call).
         */
        boolean takes(Transport t) {
            return t instanceof AsyncTransport && WALKER.walk(s -> s.skip(1)
                    .dropWhile(f -> PASS_THROUGH.contains(f.getClassName()))
                    .findFirst()
                    .map(f -> f.getClassName().equals(Awaits.class.getName()) || f.getClassName().equals(FLOW_DATA))
                    .orElse(false));
        }

        void add(AsyncTransport a, Awaitable w) {
            writes.add(new Object[] {a, w});
        }

        /** The next deferred {@code {AsyncTransport, Awaitable}}, or {@code null}. */
        public Object[] next() {
            return next < writes.size() ? writes.get(next++) : null;
        }
    }

    /** Closes the transport. */
    @Override
    public void close() throws IOException {
        transport.close();
    }

    @Override
    public String toString() {
        return "OutputStream[" + transport + "]";
    }
}
