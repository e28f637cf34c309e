package flowtest.conformance.locks;

import flowtest.support.Async;
import flowtest.support.Spawn;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A writer flow updates a pair of fields with an await between the two writes under the write lock;
 * a reader flow reads the pair under the read lock. The reader must never see a half-written pair.
 */
public final class ReadWriteLockAcrossAwait implements Callable<Object> {

    /** The guarded pair. */
    static final class Pair {
        final ReentrantReadWriteLock rw = new ReentrantReadWriteLock();
        volatile int a;
        volatile int b;
    }

    /** Reads the pair three times under the read lock, awaiting inside. */
    static final class Reader implements Callable<Object> {
        private final Pair pair;

        Reader(Pair pair) {
            this.pair = pair;
        }

        @Override
        public Object call() throws Exception {
            int torn = 0;
            Lock read = pair.rw.readLock();
            for (int i = 0; i < 3; i++) {
                if (!read.tryLock(3, TimeUnit.SECONDS)) {
                    return "read lock not acquired within 3 s";
                }
                try {
                    int a = pair.a;
                    Async.later(i).get();
                    if (a != pair.b || pair.a != pair.b) {
                        torn++;
                    }
                } finally {
                    read.unlock();
                }
            }
            return "torn reads " + torn;
        }
    }

    @Override
    public Object call() throws Exception {
        Pair pair = new Pair();
        java.util.concurrent.Future<Object> reader = Spawn.start(new Reader(pair));
        Lock write = pair.rw.writeLock();
        for (int i = 1; i <= 3; i++) {
            if (!write.tryLock(3, TimeUnit.SECONDS)) {
                return "write lock not acquired within 3 s";
            }
            try {
                pair.a = i;
                pair.b = Async.later(i).get();
            } finally {
                write.unlock();
            }
        }
        return pair.a + "," + pair.b + " " + reader.get(5, TimeUnit.SECONDS) + ", write locked "
                + pair.rw.isWriteLocked() + ", readers " + pair.rw.getReadLockCount();
    }
}
