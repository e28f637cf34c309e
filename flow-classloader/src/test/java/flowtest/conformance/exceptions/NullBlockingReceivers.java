package flowtest.conformance.exceptions;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

/** Null queues, latches, semaphores and locks: each call keeps the JVM's helpful message. */
public final class NullBlockingReceivers implements Callable<Object> {

    private BlockingQueue<String> queue;
    private CountDownLatch latch;
    private Semaphore semaphore;
    private Lock lock;

    private void attempt(int i) throws Exception {
        switch (i) {
            case 0: queue.take(); break;
            case 1: queue.poll(1, TimeUnit.MILLISECONDS); break;
            case 2: queue.put("x"); break;
            case 3: queue.offer("x", 1, TimeUnit.MILLISECONDS); break;
            case 4: latch.await(); break;
            case 5: latch.await(1, TimeUnit.MILLISECONDS); break;
            case 6: semaphore.acquire(); break;
            case 7: semaphore.tryAcquire(1, TimeUnit.MILLISECONDS); break;
            case 8: lock.lock(); break;
            case 9: lock.tryLock(); break;
            case 10: lock.tryLock(1, TimeUnit.MILLISECONDS); break;
            default: lock.unlock(); break;
        }
    }

    @Override
    public Object call() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i <= 11; i++) {
            try {
                attempt(i);
                out.add("no exception");
            } catch (Exception e) {
                out.add(e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
        return String.join("\n", out);
    }
}
