package flowtest.conformance.locks;

import flowtest.support.Async;
import flowtest.support.Spawn;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/** A failed {@code tryLock} holds nothing: awaits after it suspend. */
public final class TryLockFailureDoesNotPin implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        ReentrantLock lock = new ReentrantLock();
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        java.util.concurrent.Future<Object> holder = Spawn.onThread(() -> {
            lock.lock();
            try {
                locked.countDown();
                return release.await(5, TimeUnit.SECONDS);
            } finally {
                lock.unlock();
            }
        });
        if (!locked.await(5, TimeUnit.SECONDS)) {
            return "holder did not lock";
        }
        boolean first = lock.tryLock();
        boolean timed = lock.tryLock(1, TimeUnit.MILLISECONDS);
        int v = Async.later(5).get();
        release.countDown();
        return first + " " + timed + " " + v + " " + holder.get(5, TimeUnit.SECONDS) + " " + lock.isHeldByCurrentThread();
    }
}
