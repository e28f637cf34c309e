package dev.flow.mina;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Counts events that peers can cause at any rate (resets, timeouts, protocol errors, failed accepts)
 * and logs each kind at most once per interval: the first event of a kind is logged at once, later
 * ones are counted and summarized in one line when an event of that kind comes after the interval,
 * or at {@link #flush()}. Lines go to SLF4J at WARN when it logs warnings, else to {@link
 * System.Logger} at WARNING; never a stack trace.
 *
 * <p><b>Threads.</b> Thread-safe and lock-free; {@link Counter#record} never blocks beyond the
 * logging call of the one thread that writes a line, and not even that once {@link #writeLinesWith}
 * gave it an executor: then the lines of {@link Counter#record} are made and written there (an acceptor
 * or I/O thread does not wait for a logger, nor for its first-time initialization: 127 ms on the
 * acceptor thread at the start of a reset flood, in a bench run), and those of {@link #flush()} at once.
 * That executor must not be one that other work waits behind (a server's lines once held its setup
 * thread, and every new session's handler with it, as long).
 */
final class EventLog {

    /** The interval of the servers' event logs: at most one line per kind of event every 10 s. */
    static final Duration INTERVAL = Duration.ofSeconds(10);

    private final Logger log;
    private final System.Logger fallback;
    private final Object owner;
    private final long intervalNanos;
    private final LongSupplier clock;
    private final List<Counter> counters = new CopyOnWriteArrayList<>();
    /** Where the lines of {@link Counter#record} are written, or {@code null}: on the recording thread. */
    private volatile Executor lineWriter;

    /**
     * A log in the name of {@code source} whose lines start with {@code owner} (its {@code toString()} at
     * the time of the line).
     *
     * @throws IllegalArgumentException if {@code interval} is not positive
     */
    EventLog(Class<?> source, Object owner, Duration interval) {
        this(source, owner, interval, System::nanoTime);
    }

    /** Like {@link #EventLog(Class, Object, Duration)} with {@code clock} for {@link System#nanoTime()} (tests). */
    EventLog(Class<?> source, Object owner, Duration interval, LongSupplier clock) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval: " + interval + " (expected: > 0)");
        }
        this.log = dev.flow.internal.Slf4j.logger(source);
        this.fallback = System.getLogger(source.getName());
        this.owner = owner;
        this.intervalNanos = interval.toNanos();
        this.clock = clock;
    }

    /** A new kind of event, {@code what} being the plural noun phrase of its lines ("connections reset"). */
    Counter counter(String what) {
        Counter c = new Counter(what);
        counters.add(c);
        return c;
    }

    /**
     * Writes the lines of {@link Counter#record} on {@code writer} from now on (if it rejects one, on the
     * recording thread); {@code null} writes them on the recording thread again.
     */
    void writeLinesWith(Executor writer) {
        this.lineWriter = writer;
    }

    /** Logs the events counted and not yet logged, one line per kind (at a stop), on the calling thread. */
    void flush() {
        for (Counter c : counters) {
            Line line = c.take(null, null);
            if (line != null) {
                line.run();
            }
        }
    }

    /** Writes {@code line} on the {@linkplain #writeLinesWith line writer}, or here if there is none or it refuses. */
    private void write(Line line) {
        Executor writer = lineWriter;
        if (writer != null) {
            try {
                writer.execute(line);
                return;
            } catch (RejectedExecutionException e) {
                // stopped: write it here
            }
        }
        line.run();
    }

    /** Logs {@code text} as a warning through SLF4J if it logs warnings, else through {@code fallback}. */
    static void warn(Logger log, System.Logger fallback, String text) {
        if (log.isWarnEnabled()) {
            log.warn(text);
        } else {
            fallback.log(System.Logger.Level.WARNING, text);
        }
    }

    private String every() {
        return intervalNanos % 1_000_000_000L == 0 ? TimeUnit.NANOSECONDS.toSeconds(intervalNanos) + " s"
                : TimeUnit.NANOSECONDS.toMillis(intervalNanos) + " ms";
    }

    /** One kind of event: its total, and the count not yet logged. Thread-safe. */
    final class Counter {
        private final String what;
        private final LongAdder total = new LongAdder();
        private final AtomicLong unlogged = new AtomicLong();
        private final AtomicLong nextLine = new AtomicLong(clock.getAsLong());

        private Counter(String what) {
            this.what = what;
        }

        /**
         * Counts one event; logs a line if none was logged for this kind within the interval. {@code
         * where} (a session or a peer's address) and {@code cause}, either may be {@code null}, are only
         * turned into text for that line.
         */
        void record(Object where, Object cause) {
            total.increment();
            unlogged.incrementAndGet();
            long now = clock.getAsLong();
            long next = nextLine.get();
            if (now - next >= 0 && nextLine.compareAndSet(next, now + intervalNanos)) {
                Line line = take(where, cause);
                if (line != null) {
                    write(line);
                }
            }
        }

        /** The number of events counted since the log was created. */
        long total() {
            return total.sum();
        }

        /** Takes the count not yet logged and returns the line that reports it, or {@code null} if none. */
        private Line take(Object where, Object cause) {
            long n = unlogged.getAndSet(0);
            return n == 0 ? null : new Line(this, n, total.sum(), where, cause);
        }
    }

    /**
     * One line, its text made only where it is written: the recording thread (an acceptor or I/O thread) only
     * takes the counts, and neither bootstraps string concatenation nor a lambda on its first event.
     */
    private final class Line implements Runnable {
        private final Counter kind;
        private final long count;
        private final long all;
        private final Object where;
        private final Object cause;

        Line(Counter kind, long count, long all, Object where, Object cause) {
            this.kind = kind;
            this.count = count;
            this.all = all;
            this.where = where;
            this.cause = cause;
        }

        @Override
        public void run() {
            Object detail = where == null ? cause : cause == null ? where : where + ": " + cause;
            warn(log, fallback, owner + ": " + count + " " + kind.what + (detail != null ? " (last: " + detail + ")" : "")
                    + ", " + all + " in all; at most one such line every " + every());
        }
    }
}
