package dev.flow.bench.load;

import dev.flow.SuspendPolicy;
import dev.flow.bench.VirtualThreads;
import dev.flow.mina.Dispatch;
import java.time.Duration;
import java.util.Locale;

/** The server modes of the line-echo load driver; all speak the same protocol. */
public enum Mode {
    /** Plain {@code ServerSocket}, one platform thread per connection running {@code LineEcho}. */
    SYNC("sync"),
    /**
     * {@code FlowServer} + {@code ContinuationClassLoader}, policy {@code immediately()}, the server's
     * default dispatch ({@code Dispatch.ADAPTIVE}).
     */
    CONTINUATION_IMMEDIATELY("continuation-immediately"),
    /**
     * {@code continuation-immediately} with {@code Dispatch.WORKERS}: every flow woken by its input is
     * handed to a worker (the default before {@code ADAPTIVE}).
     */
    CONTINUATION_WORKERS("continuation-workers"),
    /**
     * {@code continuation-immediately} with {@code Dispatch.IO_THREADS}: a flow woken by its input
     * resumes on the MINA I/O thread that read it.
     */
    CONTINUATION_IO("continuation-io"),
    /** {@code continuation-immediately}'s loader and dispatch, policy {@code after(1 ms)}. */
    CONTINUATION_AFTER1MS("continuation-after1ms"),
    /** Same, policy {@code adaptive()}. */
    CONTINUATION_ADAPTIVE("continuation-adaptive"),
    /** A hand-written MINA {@code IoHandler} with a {@code TextLineCodec}: the async baseline. */
    MINA("mina"),
    /** Plain {@code ServerSocket}, one virtual thread per connection running {@code LineEcho} (JDK 21+). */
    VIRTUAL("virtual"),
    /**
     * A hand-written Netty 4.2 server ({@link NettyServer}: NIO, 2 event loops, pooled buffers, flush
     * consolidation) answering echo, HTTP and RESP with the same bytes: the event-loop baseline.
     */
    NETTY("netty");

    private final String id;

    Mode(String id) {
        this.id = id;
    }

    /** The name used on the command line and in the results. */
    public String id() {
        return id;
    }

    /** Whether the mode runs flows through the class loader. */
    public boolean continuation() {
        return this == CONTINUATION_IMMEDIATELY || this == CONTINUATION_WORKERS || this == CONTINUATION_IO
                || this == CONTINUATION_AFTER1MS || this == CONTINUATION_ADAPTIVE;
    }

    /** Where the flows of a continuation mode resume on input: the server's default unless the mode names one. */
    Dispatch dispatch() {
        switch (this) {
            case CONTINUATION_IO:
                return Dispatch.IO_THREADS;
            case CONTINUATION_WORKERS:
                return Dispatch.WORKERS;
            default:
                return Dispatch.ADAPTIVE;
        }
    }

    /** The suspend policy of a continuation mode. */
    SuspendPolicy policy() {
        switch (this) {
            case CONTINUATION_IMMEDIATELY:
            case CONTINUATION_WORKERS:
            case CONTINUATION_IO:
                return SuspendPolicy.immediately();
            case CONTINUATION_AFTER1MS:
                return SuspendPolicy.after(Duration.ofMillis(1));
            case CONTINUATION_ADAPTIVE:
                return SuspendPolicy.adaptive();
            default:
                throw new IllegalStateException(id + " is not a continuation mode");
        }
    }

    /** {@code null} if the mode can run on this JDK, else why not. */
    public String unavailableReason() {
        if (this == VIRTUAL && !VirtualThreads.available()) {
            return "SKIPPED mode virtual: " + VirtualThreads.reason();
        }
        return null;
    }

    /** Parses a mode name; {@code continuation} alone means {@code continuation-immediately}. */
    public static Mode parse(String s) {
        String k = s.trim().toLowerCase(Locale.ROOT);
        if (k.equals("continuation")) {
            return CONTINUATION_IMMEDIATELY;
        }
        for (Mode m : values()) {
            if (m.id.equals(k)) {
                return m;
            }
        }
        throw new IllegalArgumentException("mode: " + s + " (expected one of: sync, continuation-immediately,"
                + " continuation-workers, continuation-io, continuation-after1ms, continuation-adaptive, mina, virtual,"
                + " netty)");
    }

    @Override
    public String toString() {
        return id;
    }
}
