package flowtest.conformance.primitives;

import flowtest.support.Async;
import flowtest.support.Spawn;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A consumer polling with a timeout for items a sibling flow produces (on one worker both share it). */
public final class PollFromSiblingFlow implements Callable<Object> {

    /** Puts 1..5, each computed by an await. */
    static final class Producer implements Callable<Object> {
        private final BlockingQueue<Integer> queue;

        Producer(BlockingQueue<Integer> queue) {
            this.queue = queue;
        }

        @Override
        public Object call() throws Exception {
            for (int i = 1; i <= 5; i++) {
                queue.put(Async.later(i).get());
            }
            return "produced";
        }
    }

    @Override
    public Object call() throws Exception {
        BlockingQueue<Integer> queue = new LinkedBlockingQueue<>();
        java.util.concurrent.Future<Object> producer = Spawn.start(new Producer(queue));
        int sum = 0;
        for (int i = 0; i < 5; i++) {
            Integer v = queue.poll(3, TimeUnit.SECONDS);
            if (v == null) {
                return "timed out after " + i + " items";
            }
            sum += v;
        }
        return sum + " " + producer.get(3, TimeUnit.SECONDS);
    }
}
