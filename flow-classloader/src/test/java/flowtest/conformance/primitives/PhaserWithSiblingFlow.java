package flowtest.conformance.primitives;

import flowtest.support.Async;
import flowtest.support.Spawn;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;

/**
 * Two parties, this flow and a sibling flow, pass two phases of a {@code Phaser}. A watchdog thread
 * terminates the phaser if they have not finished within 3 s (a party holding the only worker would
 * otherwise wait for ever), which shows as negative phases.
 */
public final class PhaserWithSiblingFlow implements Callable<Object> {

    /** The sibling party: awaits a value before each arrival. */
    static final class Party implements Callable<Object> {
        private final Phaser phaser;

        Party(Phaser phaser) {
            this.phaser = phaser;
        }

        @Override
        public Object call() throws Exception {
            int first = phaser.arriveAndAwaitAdvance() + Async.later(0).get();
            return first + "/" + phaser.arriveAndAwaitAdvance();
        }
    }

    @Override
    public Object call() throws Exception {
        Phaser phaser = new Phaser(2);
        CountDownLatch finished = new CountDownLatch(1);
        Spawn.onThread(() -> {
            if (!finished.await(3, TimeUnit.SECONDS)) {
                phaser.forceTermination();
            }
            return null;
        });
        java.util.concurrent.Future<Object> party = Spawn.start(new Party(phaser));
        int first = phaser.arrive();
        int second = phaser.awaitAdvance(first);
        int third = phaser.arriveAndAwaitAdvance();
        finished.countDown();
        return first + " " + second + " " + third + " sibling " + party.get(3, TimeUnit.SECONDS)
                + " terminated " + phaser.isTerminated();
    }
}
