package flowtest.support;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/** Test support outside the instrumented scope: locks created by code the loader does not rewrite. */
public final class ForeignLocks {

    private ForeignLocks() {
    }

    /** A JDK {@code ReentrantLock}, as a library outside the scope would create it. */
    public static ReentrantLock reentrantLock() {
        return new ReentrantLock();
    }

    /**
     * Takes {@code lock} on a new thread and returns once it holds it; the thread releases it once
     * another thread waits for it, once {@code release} is counted down, or after 5 s.
     */
    public static void holdUntilQueued(ReentrantLock lock, CountDownLatch release) throws InterruptedException {
        CountDownLatch held = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            lock.lock();
            try {
                held.countDown();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (!lock.hasQueuedThreads() && System.nanoTime() < deadline && !release.await(1, TimeUnit.MILLISECONDS)) {
                    Thread.onSpinWait();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                lock.unlock();
            }
        }, "foreign-lock-holder");
        t.setDaemon(true);
        t.start();
        held.await();
    }
}
