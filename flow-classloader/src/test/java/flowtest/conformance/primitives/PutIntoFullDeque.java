package flowtest.conformance.primitives;

import flowtest.support.Async;
import flowtest.support.Spawn;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;

/**
 * {@code putFirst}/{@code putLast} into a full deque of one slot that a plain thread drains from
 * alternate ends, from once the flow waits to put its second item (after a fixed 2 ms, a descheduled flow
 * could find the slot free every time); {@code takeFirst} waits for the thread's report.
 */
public final class PutIntoFullDeque implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        BlockingDeque<Integer> deque = new LinkedBlockingDeque<>(1);
        BlockingDeque<String> report = new LinkedBlockingDeque<>();
        CompletableFuture<Object> full = Async.onceWaiting(null);
        Spawn.onThread(() -> {
            full.join();
            List<Integer> out = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                Thread.sleep(2);
                out.add(i % 2 == 0 ? deque.pollFirst(5, TimeUnit.SECONDS) : deque.pollLast(5, TimeUnit.SECONDS));
            }
            report.putLast(out.toString());
            return null;
        });
        for (int i = 1; i <= 4; i++) {
            if (i % 2 == 1) {
                deque.putFirst(i);
            } else {
                deque.putLast(i);
            }
        }
        return "drained " + report.takeFirst();
    }
}
