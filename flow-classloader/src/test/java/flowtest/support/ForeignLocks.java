package flowtest.support;

import java.util.concurrent.locks.ReentrantLock;

/** Test support outside the instrumented scope: locks created by code the loader does not rewrite. */
public final class ForeignLocks {

    private ForeignLocks() {
    }

    /** A JDK {@code ReentrantLock}, as a library outside the scope would create it. */
    public static ReentrantLock reentrantLock() {
        return new ReentrantLock();
    }
}
