package flowtest.conformance.locks;

import flowtest.support.Async;
import flowtest.support.Spawn;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A lock taken twice while nobody else wants it (Flow's fast path, no monitor), then wanted by a plain thread that
 * blocks in {@code lock()}: the holder awaits (a flow suspends and may resume on another worker) and is still the
 * owner with both holds; the thread stays out after the first {@code unlock} and enters after the second.
 */
public final class ReentrantHoldAcrossSuspensionWithQueuedThread implements Callable<Object> {

    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(10);

    @Override
    public Object call() throws Exception {
        ReentrantLock lock = new ReentrantLock();
        AtomicInteger step = new AtomicInteger();
        AtomicInteger enteredAt = new AtomicInteger(-1);
        AtomicReference<Thread> thread = new AtomicReference<>();
        lock.lock();
        lock.lock();
        CompletableFuture<String> other = Spawn.onThread(() -> {
            thread.set(Thread.currentThread());
            lock.lock();
            try {
                enteredAt.set(step.get());
                return lock.getHoldCount() + " " + lock.isHeldByCurrentThread();
            } finally {
                lock.unlock();
            }
        });
        long end = System.nanoTime() + DEADLINE_NANOS;
        while (thread.get() == null || thread.get().getState() != Thread.State.WAITING) {
            if (other.isDone() || System.nanoTime() > end) {
                return "the thread did not wait for the lock: " + (other.isDone() ? other.get() : "deadline");
            }
            Async.later(null).get();
        }
        String resumed = Async.later("resumed").get();
        String held = resumed + " holding " + lock.getHoldCount() + " " + lock.isHeldByCurrentThread();
        step.set(1);
        lock.unlock();
        Async.later(null).get();
        boolean outWithOneHold = enteredAt.get() == -1;
        step.set(2);
        lock.unlock();
        String entered = other.get(10, TimeUnit.SECONDS);
        return held + ", thread out while one hold left " + outWithOneHold + ", entered at step " + enteredAt
                + " holding " + entered + ", held by me " + lock.isHeldByCurrentThread() + ", locked " + lock.isLocked();
    }
}
