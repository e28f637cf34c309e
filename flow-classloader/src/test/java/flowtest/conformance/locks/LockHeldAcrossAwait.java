package flowtest.conformance.locks;

import flowtest.support.Async;
import flowtest.support.Spawn;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Two flows (one worker shared, if only one) enter a critical section guarded by a {@code
 * ReentrantLock} and await inside it. Mutual exclusion must hold: the shared counter never sees two
 * inside at once, and each {@code unlock()} succeeds (the flow owns the lock, on whichever thread it
 * resumes). A broken lock either lets the second flow re-enter on the same thread or leaves it
 * waiting, bounded by a timed {@code tryLock}.
 */
public final class LockHeldAcrossAwait implements Callable<Object> {

    /** The shared state of both flows. */
    static final class Shared {
        final ReentrantLock lock = new ReentrantLock();
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        int total;

        /** The critical section: awaits while holding the lock. */
        void critical(int value) throws Exception {
            try {
                if (inside.incrementAndGet() > 1) {
                    overlaps.incrementAndGet();
                }
                total += Async.later(value).get();
                inside.decrementAndGet();
            } finally {
                lock.unlock();
            }
        }
    }

    /** The second flow: enters three times with a bounded {@code tryLock}. */
    static final class Other implements Callable<Object> {
        private final Shared shared;

        Other(Shared shared) {
            this.shared = shared;
        }

        @Override
        public Object call() throws Exception {
            for (int i = 0; i < 3; i++) {
                if (!shared.lock.tryLock(3, TimeUnit.SECONDS)) {
                    return "lock not acquired within 3 s";
                }
                shared.critical(100);
            }
            return "other done";
        }
    }

    @Override
    public Object call() throws Exception {
        Shared shared = new Shared();
        java.util.concurrent.Future<Object> other = Spawn.start(new Other(shared));
        for (int i = 0; i < 3; i++) {
            if (i == 0) {
                shared.lock.lock();
            } else if (!shared.lock.tryLock(3, TimeUnit.SECONDS)) {
                return "lock not acquired within 3 s";
            }
            shared.critical(1);
        }
        Object o = other.get(5, TimeUnit.SECONDS);
        return "total " + shared.total + ", overlaps " + shared.overlaps + ", " + o + ", held " + shared.lock.isLocked();
    }
}
