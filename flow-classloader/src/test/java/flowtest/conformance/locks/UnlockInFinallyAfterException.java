package flowtest.conformance.locks;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A lock released in {@code finally} after an exception, and an {@code unlock()} without a hold,
 * which throws: afterwards the flow holds nothing and its awaits suspend.
 */
public final class UnlockInFinallyAfterException implements Callable<Object> {

    private static int parse(Lock lock, String s) {
        lock.lock();
        try {
            return Integer.parseInt(s);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Object call() throws Exception {
        Lock lock = new ReentrantLock();
        String failure;
        try {
            parse(lock, "x1");
            failure = "none";
        } catch (NumberFormatException e) {
            failure = e.getMessage();
        }
        String unheld;
        try {
            lock.unlock();
            unheld = "none";
        } catch (IllegalMonitorStateException e) {
            unheld = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        return failure + "; " + unheld + "; " + Async.later(parse(lock, "42")).get();
    }
}
