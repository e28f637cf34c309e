package flowtest.conformance.primitives;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.StampedLock;

/**
 * With the interrupt flag set, each primitive decides in its own order, even when it could succeed at
 * once: an {@code ArrayBlockingQueue}'s waits, latches, {@code Semaphore.acquire}, a deque's timed
 * waits and a stamped lock's interruptible forms throw {@code InterruptedException} and clear the flag;
 * a {@code LinkedBlockingDeque}'s {@code take}, {@code takeFirst}, {@code putLast}, an unbounded queue's
 * {@code put} and the uninterruptible waits return and keep it.
 */
public final class InterruptedWaits implements Callable<Object> {

    private final ArrayBlockingQueue<String> full = new ArrayBlockingQueue<>(1);
    private final CountDownLatch open = new CountDownLatch(0);
    private final Semaphore permits = new Semaphore(5);
    private final LinkedBlockingDeque<String> deque = new LinkedBlockingDeque<>(2);
    private final BlockingQueue<String> transfer = new LinkedTransferQueue<>();
    private final BlockingQueue<String> priority = new PriorityBlockingQueue<>();
    private final StampedLock lock = new StampedLock();

    private Object attempt(int i) throws Exception {
        switch (i) {
            case 0: return full.take();
            case 1: return full.poll(1, TimeUnit.MILLISECONDS);
            case 2: full.put("y"); return "put";
            case 3: return full.offer("y", 1, TimeUnit.MILLISECONDS);
            case 4: open.await(); return "awaited";
            case 5: return open.await(1, TimeUnit.MILLISECONDS);
            case 6: permits.acquire(); return "acquired";
            case 7: permits.acquireUninterruptibly(); return "acquired uninterruptibly";
            case 8: return permits.tryAcquire(1, TimeUnit.MILLISECONDS);
            case 9: return deque.take();
            case 10: return deque.takeFirst();
            case 11: return deque.takeLast();
            case 12: deque.putLast("y"); return "putLast";
            case 13: deque.putFirst("y"); return "putFirst";
            case 14: return deque.pollFirst(1, TimeUnit.MILLISECONDS);
            case 15: return deque.offerLast("y", 1, TimeUnit.MILLISECONDS);
            case 16: priority.put("y"); return "put into a priority queue";
            case 17: return priority.offer("y", 1, TimeUnit.MILLISECONDS);
            case 18: transfer.put("y"); return "put into a transfer queue";
            case 19: return transfer.poll(1, TimeUnit.MILLISECONDS);
            case 20: return unlock(lock.readLock());
            case 21: return unlock(lock.writeLock());
            case 22: return unlock(lock.readLockInterruptibly());
            case 23: return unlock(lock.writeLockInterruptibly());
            case 24: return unlock(lock.tryReadLock(1, TimeUnit.MILLISECONDS));
            default: return unlock(lock.tryWriteLock(1, TimeUnit.MILLISECONDS));
        }
    }

    private String unlock(long stamp) {
        lock.unlock(stamp);
        return "a stamp";
    }

    @Override
    public Object call() throws Exception {
        List<String> out = new ArrayList<>();
        for (int i = 0; i <= 25; i++) {
            full.clear();
            full.add("x");
            deque.clear();
            deque.add("x");
            transfer.clear();
            transfer.add("x");
            Thread.currentThread().interrupt();
            String r;
            try {
                r = "returned " + attempt(i);
            } catch (InterruptedException e) {
                r = "InterruptedException " + e.getMessage();
            }
            out.add(i + ": " + r + ", flag " + Thread.interrupted());
        }
        return String.join("; ", out);
    }
}
