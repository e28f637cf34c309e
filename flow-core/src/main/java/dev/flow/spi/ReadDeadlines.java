package dev.flow.spi;

import dev.flow.Deadline;
import dev.flow.DeadlineExceededException;
import java.time.Duration;
import java.util.Objects;

/**
 * The read deadlines open on one transport ({@link dev.flow.Transport#deadline(Duration)}), for
 * transport implementations: {@link #open(Duration)} implements {@code deadline}, and a read that is
 * about to wait bounds its wait by {@link #nanosLeft()} and fails with {@link #exceeded(Object)} when
 * it is used up. Deadlines nest: the earliest open one applies; closing one (in any order) removes
 * it. Not thread-safe: used by the flow or thread that uses the transport.
 */
public final class ReadDeadlines {

    /** The most recently opened deadline still open, each linking to the one opened before. */
    private Entry top;

    /** Creates a set with no deadline open. */
    public ReadDeadlines() {
    }

    /**
     * Opens a deadline {@code timeout} from now.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public Deadline open(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout: " + timeout + " (expected: >= 0)");
        }
        long nanos;
        try {
            nanos = timeout.toNanos();
        } catch (ArithmeticException e) {
            nanos = Long.MAX_VALUE / 2;
        }
        Entry e = new Entry(timeout, System.nanoTime() + Math.min(nanos, Long.MAX_VALUE / 2), top);
        top = e;
        return e;
    }

    /**
     * The nanoseconds left before the earliest open deadline: {@code <= 0} if it has passed, {@link
     * Long#MAX_VALUE} if none is open.
     */
    public long nanosLeft() {
        Entry first = earliest();
        return first == null ? Long.MAX_VALUE : first.at - System.nanoTime();
    }

    /**
     * The exception for a read that would wait past the earliest open deadline, naming {@code source}
     * (the connection) and that deadline's timeout.
     *
     * @throws IllegalStateException if no deadline is open
     */
    public DeadlineExceededException exceeded(Object source) {
        Entry first = earliest();
        if (first == null) {
            throw new IllegalStateException("no deadline open");
        }
        return new DeadlineExceededException(source, first.timeout);
    }

    private Entry earliest() {
        Entry first = null;
        for (Entry e = top; e != null; e = e.previous) {
            if (first == null || e.at - first.at < 0) {
                first = e;
            }
        }
        return first;
    }

    private void remove(Entry closed) {
        Entry after = null;
        for (Entry e = top; e != null; after = e, e = e.previous) {
            if (e == closed) {
                if (after == null) {
                    top = e.previous;
                } else {
                    after.previous = e.previous;
                }
                return;
            }
        }
    }

    @Override
    public String toString() {
        long left = nanosLeft();
        return "ReadDeadlines[" + (left == Long.MAX_VALUE ? "none" : Duration.ofNanos(Math.max(left, 0)) + " left") + "]";
    }

    /** One open deadline. */
    private final class Entry implements Deadline {
        private final Duration timeout;
        private final long at;
        private Entry previous;
        private boolean closed;

        Entry(Duration timeout, long at, Entry previous) {
            this.timeout = timeout;
            this.at = at;
            this.previous = previous;
        }

        @Override
        public Duration timeout() {
            return timeout;
        }

        @Override
        public Duration remaining() {
            return Duration.ofNanos(Math.max(0, at - System.nanoTime()));
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                remove(this);
            }
        }

        @Override
        public String toString() {
            return "Deadline[" + timeout + (closed ? ", closed" : ", " + remaining() + " left") + "]";
        }
    }
}
