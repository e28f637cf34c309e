package flowtest.conformance.locks;

import flowtest.support.Async;
import flowtest.support.Spawn;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A producer and a consumer hand three values over a one-slot buffer guarded by a lock and two
 * conditions, each awaiting while holding the lock; the consumer also times out once on an empty slot.
 */
public final class ConditionSignalledByAnotherFlow implements Callable<Object> {

    static final class Slot {
        final ReentrantLock lock = new ReentrantLock();
        final Condition full = lock.newCondition();
        final Condition empty = lock.newCondition();
        Integer value;
    }

    static final class Producer implements Callable<Object> {
        private final Slot slot;

        Producer(Slot slot) {
            this.slot = slot;
        }

        @Override
        public Object call() throws Exception {
            for (int i = 1; i <= 3; i++) {
                slot.lock.lock();
                try {
                    while (slot.value != null) {
                        if (!slot.empty.await(2, TimeUnit.SECONDS)) {
                            return "producer timed out";
                        }
                    }
                    slot.value = Async.later(i * 10).get();
                    slot.full.signal();
                } finally {
                    slot.lock.unlock();
                }
            }
            return "produced";
        }
    }

    @Override
    public Object call() throws Exception {
        Slot slot = new Slot();
        StringBuilder b = new StringBuilder();
        slot.lock.lock();
        try {
            b.append("timed out ").append(!slot.full.await(1, TimeUnit.MILLISECONDS)).append(", held ")
                    .append(slot.lock.getHoldCount()).append(", got");
        } finally {
            slot.lock.unlock();
        }
        java.util.concurrent.Future<Object> producer = Spawn.start(new Producer(slot));
        for (int i = 0; i < 3; i++) {
            slot.lock.lock();
            slot.lock.lock();
            try {
                while (slot.value == null) {
                    if (!slot.full.await(2, TimeUnit.SECONDS)) {
                        return b + " consumer timed out";
                    }
                }
                b.append(' ').append(slot.value).append('/').append(slot.lock.getHoldCount());
                slot.value = null;
                slot.empty.signalAll();
            } finally {
                slot.lock.unlock();
                slot.lock.unlock();
            }
        }
        return b + ", " + producer.get(5, TimeUnit.SECONDS);
    }
}
