package flowtest.owncontinuation;

import org.apache.commons.javaflow.api.Continuation;

/** Runs a JavaFlow continuation itself: a loader including this package must refuse it. */
public final class RunsContinuation implements Runnable {

    @Override
    public void run() {
        Continuation c = Continuation.startWith(new Step());
        while (c != null) {
            c = c.resume();
        }
    }

    /** The continuation's body. */
    static final class Step implements Runnable {
        @Override
        public void run() {
            Continuation.suspend();
        }
    }
}
