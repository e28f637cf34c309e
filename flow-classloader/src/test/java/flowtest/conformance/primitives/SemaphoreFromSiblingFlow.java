package flowtest.conformance.primitives;

import flowtest.support.Async;
import flowtest.support.Spawn;
import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/** {@code Semaphore.tryAcquire(permits, timeout)} of permits a sibling flow releases after an await. */
public final class SemaphoreFromSiblingFlow implements Callable<Object> {

    /** Releases two permits after an await. */
    static final class Releaser implements Callable<Object> {
        private final Semaphore semaphore;

        Releaser(Semaphore semaphore) {
            this.semaphore = semaphore;
        }

        @Override
        public Object call() throws Exception {
            semaphore.release(Async.later(2).get());
            return "released";
        }
    }

    @Override
    public Object call() throws Exception {
        Semaphore semaphore = new Semaphore(0);
        java.util.concurrent.Future<Object> releaser = Spawn.start(new Releaser(semaphore));
        boolean acquired = semaphore.tryAcquire(2, 3, TimeUnit.SECONDS);
        return acquired + " " + semaphore.availablePermits() + " " + releaser.get(3, TimeUnit.SECONDS);
    }
}
