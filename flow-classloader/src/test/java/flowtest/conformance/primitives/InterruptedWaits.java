package flowtest.conformance.primitives;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * With the interrupt flag set, interruptible waits throw {@code InterruptedException} and clear it,
 * even when they could succeed at once; uninterruptible ones return and keep it.
 */
public final class InterruptedWaits implements Callable<Object> {

    private final ArrayBlockingQueue<String> full = new ArrayBlockingQueue<>(1);
    private final CountDownLatch open = new CountDownLatch(0);
    private final Semaphore permits = new Semaphore(5);

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
            default: return permits.tryAcquire(1, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public Object call() throws Exception {
        List<String> out = new ArrayList<>();
        for (int i = 0; i <= 8; i++) {
            full.clear();
            full.add("x");
            Thread.currentThread().interrupt();
            String r;
            try {
                r = "returned " + attempt(i);
            } catch (InterruptedException e) {
                r = "InterruptedException " + e.getMessage();
            }
            out.add(r + ", flag " + Thread.interrupted());
        }
        return String.join("; ", out);
    }
}
