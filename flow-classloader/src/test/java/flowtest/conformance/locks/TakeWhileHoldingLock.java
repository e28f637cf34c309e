package flowtest.conformance.locks;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * {@code take()} while holding a lock, of an element another thread adds once the flow waits: the lock
 * belongs to the flow, so the flow suspends in {@code take()} and still holds the lock afterwards.
 */
public final class TakeWhileHoldingLock implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        ReentrantLock lock = new ReentrantLock();
        LinkedBlockingQueue<String> queue = new LinkedBlockingQueue<>();
        lock.lock();
        try {
            Async.onceWaiting("item").thenAccept(queue::add);
            return queue.take() + ", held " + lock.isHeldByCurrentThread();
        } finally {
            lock.unlock();
        }
    }
}
