package flowtest.conformance.locks;

import flowtest.support.Async;
import flowtest.support.Spawn;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A lock created here is shared with a plain thread (never a flow): while this code holds it across
 * an await, the thread's {@code tryLock} fails and its timed {@code tryLock} waits; the two never
 * overlap in the critical section; the thread's {@code lockInterruptibly} throws when interrupted first.
 */
public final class LockSharedWithPlainThread implements Callable<Object> {

    static final class Shared {
        final ReentrantLock lock = new ReentrantLock();
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        final CountDownLatch held = new CountDownLatch(1);
        final CountDownLatch tried = new CountDownLatch(1);

        void critical() {
            if (inside.incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            inside.decrementAndGet();
        }
    }

    static final class PlainThread implements Callable<Object> {
        private final Shared shared;

        PlainThread(Shared shared) {
            this.shared = shared;
        }

        @Override
        public Object call() throws Exception {
            if (!shared.held.await(5, TimeUnit.SECONDS)) {
                return "never held";
            }
            boolean barged = shared.lock.tryLock();
            if (barged) {
                shared.lock.unlock();
            }
            shared.tried.countDown();
            int entered = 0;
            for (int i = 0; i < 20; i++) {
                if (shared.lock.tryLock(5, TimeUnit.SECONDS)) {
                    try {
                        shared.critical();
                        entered++;
                    } finally {
                        shared.lock.unlock();
                    }
                }
            }
            Thread.currentThread().interrupt();
            String interrupted;
            try {
                shared.lock.lockInterruptibly();
                shared.lock.unlock();
                interrupted = "acquired";
            } catch (InterruptedException e) {
                interrupted = "interrupted";
            }
            return "thread barged " + barged + ", entered " + entered + ", " + interrupted + ", owns " + shared.lock.isHeldByCurrentThread();
        }
    }

    @Override
    public Object call() throws Exception {
        Shared shared = new Shared();
        java.util.concurrent.Future<Object> thread = Spawn.onThread(new PlainThread(shared));
        int entered = 0;
        for (int i = 0; i < 20; i++) {
            shared.lock.lock();
            try {
                if (i == 0) {
                    shared.held.countDown();
                    if (!shared.tried.await(5, TimeUnit.SECONDS)) {
                        return "the thread never tried";
                    }
                }
                shared.critical();
                Async.later(i).get();
                shared.critical();
                entered++;
            } finally {
                shared.lock.unlock();
            }
        }
        return "flow entered " + entered + ", " + thread.get(10, TimeUnit.SECONDS) + ", overlaps " + shared.overlaps
                + ", locked " + shared.lock.isLocked();
    }
}
