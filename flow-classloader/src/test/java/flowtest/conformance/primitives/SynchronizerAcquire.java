package flowtest.conformance.primitives;

import java.util.concurrent.Callable;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;

/** A mutex written on {@code AbstractQueuedSynchronizer}: its {@code acquire} parks the thread, so it is reported. */
public final class SynchronizerAcquire implements Callable<Object> {

    /** State 0: free, 1: held. */
    static final class Mutex extends AbstractQueuedSynchronizer {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean tryAcquire(int arg) {
            return compareAndSetState(0, 1);
        }

        @Override
        protected boolean tryRelease(int arg) {
            setState(0);
            return true;
        }

        boolean isHeld() {
            return getState() == 1;
        }
    }

    @Override
    public Object call() throws Exception {
        Mutex mutex = new Mutex();
        mutex.acquire(1);
        boolean held = mutex.isHeld();
        mutex.release(1);
        return "held " + held + ", then " + mutex.isHeld();
    }
}
