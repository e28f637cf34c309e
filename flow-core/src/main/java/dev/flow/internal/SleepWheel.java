package dev.flow.internal;

import dev.flow.spi.Awaitable;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * A hashed timing wheel for sleeping flows: 1 ms ticks, 1024 slots, one object per sleep (the
 * {@link Sleep} itself is the list node), O(1) insertion. A million sleepers cost a million small
 * objects, not a million heap entries to re-sort as in a {@code ScheduledThreadPoolExecutor}.
 *
 * <p>One daemon thread turns the wheel and runs the wake-up actions, which only put flows back on
 * the ready queue; an action that fails (out of memory) is reported and the wheel goes on. Sleeps never
 * end early; they end at most about one tick late. Any thread may add a sleep: additions go through
 * lock-free inboxes that the wheel thread drains, one of {@value #INBOXES} picked by the adding thread's
 * id, so that two workers adding sleeps at once do not fight over one cache line.
 */
final class SleepWheel implements Runnable {

    private static final long TICK_NANOS = 1_000_000L;
    private static final int SLOTS = 1024;
    private static final int MASK = SLOTS - 1;
    /** How many inboxes; a power of two. */
    private static final int INBOXES = 4;
    /** Inboxes sit this many references apart in {@link #inboxes}: 64 bytes or more, a cache line each. */
    private static final int INBOX_STRIDE = 16;

    private final Sleep[] slots = new Sleep[SLOTS];
    private final AtomicReferenceArray<Sleep> inboxes = new AtomicReferenceArray<>(INBOXES * INBOX_STRIDE);
    private final Thread thread;
    private final java.util.function.Consumer<Throwable> onError;
    private volatile boolean idle;
    private volatile boolean closed;
    /** Sleeps in the slots; wheel thread only. */
    private int count;
    /** The last tick whose slot was processed; wheel thread only. */
    private long lastTick;

    /** Starts the wheel's thread; {@code onError} hears of any error the thread survives (out of memory). */
    SleepWheel(String name, java.util.function.Consumer<Throwable> onError) {
        this.onError = onError;
        thread = new Thread(this, name);
        thread.setDaemon(true);
        lastTick = System.nanoTime() / TICK_NANOS;
        thread.start();
    }

    /** Returns a sleep ending {@code nanos} from now. */
    Sleep sleep(long nanos) {
        return new Sleep(this, System.nanoTime() + nanos);
    }

    void close() {
        closed = true;
        LockSupport.unpark(thread);
    }

    /** Waits up to {@code millis} ({@code 0}: for ever) for the wheel's thread to end after {@link #close()}. */
    boolean awaitTermination(long millis) throws InterruptedException {
        thread.join(millis);
        return !thread.isAlive();
    }

    @SuppressWarnings("deprecation") // Thread.threadId() is JDK 19+
    private void add(Sleep s) {
        int inbox = (int) (Thread.currentThread().getId() & (INBOXES - 1)) * INBOX_STRIDE;
        Sleep head;
        do {
            head = inboxes.get(inbox);
            s.next = head;
        } while (!inboxes.compareAndSet(inbox, head, s));
        if (idle) {
            LockSupport.unpark(thread);
        }
    }

    @Override
    public void run() {
        while (!closed) {
            try {
                turn();
            } catch (Throwable t) {
                // A wake-up action that ran out of memory: the wheel goes on with the others.
                onError.accept(t);
            }
        }
    }

    /** One turn: takes the new sleeps, fires the due ones, parks until the next tick or sleep. */
    private void turn() {
        long now = System.nanoTime();
        drainInboxes(now);
        long tick = now / TICK_NANOS;
        long from = tick - lastTick > SLOTS ? tick - SLOTS + 1 : lastTick + 1;
        for (long t = from; t <= tick; t++) {
            expire((int) (t & MASK), now);
        }
        lastTick = tick;
        if (count == 0) {
            idle = true;
            if (inboxesEmpty() && !closed) {
                LockSupport.park(this);
            }
            idle = false;
            lastTick = System.nanoTime() / TICK_NANOS - 1;
        } else {
            LockSupport.parkNanos(this, TICK_NANOS - now % TICK_NANOS);
        }
    }

    /** Fires {@code s}; an error of its action (out of memory) goes to {@link #onError}, not up the wheel's loop. */
    private void fire(Sleep s) {
        try {
            s.fire();
        } catch (Throwable t) {
            onError.accept(t);
        }
    }

    private boolean inboxesEmpty() {
        for (int i = 0; i < INBOXES; i++) {
            if (inboxes.get(i * INBOX_STRIDE) != null) {
                return false;
            }
        }
        return true;
    }

    private void drainInboxes(long now) {
        for (int i = 0; i < INBOXES; i++) {
            drain(inboxes.getAndSet(i * INBOX_STRIDE, null), now);
        }
    }

    private void drain(Sleep s, long now) {
        while (s != null) {
            Sleep next = s.next;
            if (s.deadline - now <= 0) {
                s.next = null;
                fire(s);
            } else {
                int slot = (int) ((s.deadline / TICK_NANOS + 1) & MASK);
                s.next = slots[slot];
                slots[slot] = s;
                count++;
            }
            s = next;
        }
    }

    private void expire(int slot, long now) {
        Sleep prev = null;
        Sleep s = slots[slot];
        while (s != null) {
            Sleep next = s.next;
            if (s.deadline - now <= 0) {
                if (prev == null) {
                    slots[slot] = next;
                } else {
                    prev.next = next;
                }
                s.next = null;
                count--;
                fire(s);
            } else {
                prev = s;
            }
            s = next;
        }
    }

    /** A sleep: something a flow awaits that completes at its deadline. */
    static final class Sleep implements Awaitable {
        /** The action of a sleep that fired or was cancelled: no {@code boolean} field, 8 bytes less per sleep. */
        private static final Runnable FIRED = () -> { };
        private final SleepWheel wheel;
        final long deadline;
        /** Next node in the inbox or in a slot; owned by whoever holds the list. */
        Sleep next;
        /** What to run when it fires, {@code null} for nothing yet, {@link #FIRED} once fired or cancelled. */
        private Runnable action;

        Sleep(SleepWheel wheel, long deadline) {
            this.wheel = wheel;
            this.deadline = deadline;
        }

        @Override
        public boolean isDone() {
            return System.nanoTime() - deadline >= 0;
        }

        @Override
        public void whenDone(Runnable r) {
            boolean runNow;
            boolean first = false;
            synchronized (this) {
                runNow = action == FIRED || isDone();
                if (!runNow) {
                    if (action == null) {
                        action = r;
                        first = true;
                    } else {
                        Runnable before = action;
                        action = () -> {
                            before.run();
                            r.run();
                        };
                    }
                }
            }
            if (runNow) {
                r.run();
            } else if (first) {
                wheel.add(this);
            }
        }

        /** Drops the wake-up actions of a sleep nobody waits for any more; the node leaves the wheel at its tick. */
        void cancel() {
            synchronized (this) {
                action = FIRED;
            }
        }

        void fire() {
            Runnable a;
            synchronized (this) {
                a = action;
                action = FIRED;
            }
            if (a != null && a != FIRED) {
                a.run();
            }
        }
    }
}
