package flowtest.conformance.primitives;

import flowtest.support.Spawn;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * A producer offering with a timeout into a queue of one slot that a sibling flow drains. The consumer
 * starts {@value #CONSUMER_DELAY_MILLIS} ms late, computing rather than waiting (a wait would suspend it and
 * say nothing about the offers), so the producer's second offer finds the queue full and waits: on two
 * workers the two could otherwise run in lockstep, each offer finding room and each poll an item, and
 * nothing would suspend (seen once under load in CI).
 */
public final class OfferToSiblingConsumer implements Callable<Object> {
    /** How long the consumer computes before its first poll. */
    static final long CONSUMER_DELAY_MILLIS = 100;

    /** Takes four items with a timeout each and sums them. */
    static final class Consumer implements Callable<Object> {
        private final BlockingQueue<Integer> queue;

        Consumer(BlockingQueue<Integer> queue) {
            this.queue = queue;
        }

        @Override
        public Object call() throws Exception {
            long start = System.nanoTime();
            while (System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(CONSUMER_DELAY_MILLIS)) {
                Thread.onSpinWait();
            }
            int sum = 0;
            for (int i = 0; i < 4; i++) {
                Integer v = queue.poll(3, TimeUnit.SECONDS);
                if (v == null) {
                    return "consumer timed out after " + i + " items";
                }
                sum += v;
            }
            return sum;
        }
    }

    @Override
    public Object call() throws Exception {
        BlockingQueue<Integer> queue = new ArrayBlockingQueue<>(1);
        java.util.concurrent.Future<Object> consumer = Spawn.start(new Consumer(queue));
        StringBuilder offers = new StringBuilder();
        for (int i = 1; i <= 4; i++) {
            offers.append(queue.offer(i * 10, 3, TimeUnit.SECONDS)).append(' ');
        }
        return offers + "sum " + consumer.get(3, TimeUnit.SECONDS);
    }
}
