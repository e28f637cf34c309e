package dev.flow.jdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link OwnedSync}'s uncontended fast path (exclusive holds taken and released by CAS, without the monitor) against
 * the waits that need the monitor: a waiter that queues while the lock is held without the monitor is handed the lock
 * by the owner's release, re-entrant holds counted by the owner alone survive that, nobody passes a queued waiter,
 * and a flow and a plain thread exclude each other. Each order of events is forced by waiting (with a deadline) until
 * the waiter is queued; the last test runs the CAS races themselves, bounded in count and time.
 */
class OwnedSyncFastPathTest {

    private static final long DEADLINE_MS = 10_000;
    private static final long RACE_MS = 2_000;
    private static final int RACE_ROUNDS = 20_000_000;

    @Test
    void releaseHandsTheLockToAThreadThatQueuedWhileTheOwnerHeldItWithoutTheMonitor() throws Exception {
        OwnedSync sync = new OwnedSync(false);
        Thread main = Thread.currentThread();
        sync.acquire(false);
        CompletableFuture<String> other = onThread(() -> {
            sync.acquire(false);
            try {
                return "in, holds " + sync.writeHoldsOf(OwnedSync.me()) + ", main holds " + sync.isWriteHeldBy(main);
            } finally {
                sync.release(OwnedSync.me(), false);
            }
        });
        awaitQueued(sync, 1);
        assertTrue(sync.isWriteHeldBy(main), "still the owner after the waiter queued");
        assertEquals(1, sync.writeHoldsOf(main));
        assertFalse(other.isDone(), "the waiter entered while the owner held the lock");

        assertTrue(sync.release(main, false));

        assertEquals("in, holds 1, main holds false", other.get(DEADLINE_MS, TimeUnit.MILLISECONDS));
        assertFalse(sync.isWriteLocked());
        assertEquals(0, sync.queueLength());
        assertTrue(sync.tryAcquire(false), "free again after the hand-off");
        assertTrue(sync.release(main, false));
    }

    @Test
    void reentrantHoldsTakenWithoutTheMonitorAreAllReleasedBeforeAQueuedWaiterEnters() throws Exception {
        OwnedSync sync = new OwnedSync(false);
        Thread main = Thread.currentThread();
        sync.acquire(false);
        assertSame(main, sync.enter());
        CompletableFuture<Boolean> other = onThread(() -> {
            sync.acquire(false);
            return sync.release(OwnedSync.me(), false);
        });
        awaitQueued(sync, 1);
        assertEquals(2, sync.writeHoldsOf(main), "both holds after the waiter queued");

        sync.exit(main);

        assertEquals(1, sync.writeHoldsOf(main), "one hold left");
        assertEquals(1, sync.queueLength(), "the waiter was handed the lock while the owner still held it");
        assertTrue(sync.isWriteHeldBy(main));
        assertTrue(sync.release(main, false));
        assertTrue(other.get(DEADLINE_MS, TimeUnit.MILLISECONDS), "the waiter held the lock it released");
        assertFalse(sync.release(main, false), "a third release finds no hold");
        assertFalse(sync.isWriteLocked());
    }

    @Test
    void noTakeWithoutTheMonitorPassesAQueuedWaiter() throws Exception {
        OwnedSync sync = new OwnedSync(true);
        Thread main = Thread.currentThread();
        sync.acquire(false);
        AtomicReference<Thread> waiter = new AtomicReference<>();
        CountDownLatch mayRelease = new CountDownLatch(1);
        CompletableFuture<Boolean> other = onThread(() -> {
            waiter.set(Thread.currentThread());
            sync.acquire(false);
            if (!mayRelease.await(DEADLINE_MS, TimeUnit.MILLISECONDS)) {
                return false;
            }
            return sync.release(OwnedSync.me(), false);
        });
        awaitQueued(sync, 1);

        assertTrue(sync.release(main, false));

        assertSame(waiter.get(), sync.writer(), "the release handed the lock to the queued waiter");
        assertFalse(sync.tryAcquire(false), "a barging take got the lock the waiter was handed");
        assertFalse(sync.isWriteHeldBy(main));
        mayRelease.countDown();
        assertTrue(other.get(DEADLINE_MS, TimeUnit.MILLISECONDS));
        assertTrue(sync.tryAcquire(false), "free once the waiter released it");
        assertTrue(sync.release(main, false));
    }

    @Test
    void aReadHoldKeepsWritersOffTheFastPathUntilTheLastReaderLeaves() throws Exception {
        OwnedSync sync = new OwnedSync(false);
        Thread main = Thread.currentThread();
        sync.acquire(true);
        CompletableFuture<String> writer = onThread(() -> {
            String barged = "barged " + sync.tryAcquire(false);
            sync.acquire(false);
            try {
                return barged + ", writes with " + sync.readLockCount() + " read holds";
            } finally {
                sync.release(OwnedSync.me(), false);
            }
        });
        awaitQueued(sync, 1);
        assertEquals(1, sync.readHoldsOf(main));
        assertFalse(sync.isWriteLocked());

        assertTrue(sync.release(main, true));

        assertEquals("barged false, writes with 0 read holds", writer.get(DEADLINE_MS, TimeUnit.MILLISECONDS));
        assertFalse(sync.release(main, true), "a second read release finds no hold");
        assertTrue(sync.tryAcquire(false), "free again, taken without the monitor");
        assertEquals(1, sync.writeHoldsOf(main));
        assertTrue(sync.release(main, false));
    }

    @Test
    void aFlowAndAPlainThreadSharingTheLockExcludeEachOther() throws Exception {
        OwnedSync sync = new OwnedSync(false);
        FlowScheduler scheduler = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately())
                .name("owned-sync").build();
        try {
            CountDownLatch flowHolds = new CountDownLatch(1);
            CountDownLatch threadQueued = new CountDownLatch(1);
            AtomicReference<Object> flowOwner = new AtomicReference<>();
            CompletableFuture<String> flow = scheduler.submit(() -> {
                Object me = sync.enter();
                flowOwner.set(me);
                flowHolds.countDown();
                if (!threadQueued.await(DEADLINE_MS, TimeUnit.MILLISECONDS)) {
                    return "the thread never queued";
                }
                String held = "flow holds " + sync.isWriteHeldBy(OwnedSync.me()) + " " + sync.writeHoldsOf(me);
                sync.exit(me);
                return held;
            }).toCompletionStage().toCompletableFuture();
            assertTrue(flowHolds.await(DEADLINE_MS, TimeUnit.MILLISECONDS));
            Object owner = flowOwner.get();
            assertFalse(owner instanceof Thread, "a flow's hold belongs to the flow, not to its worker: " + owner);
            assertSame(owner, sync.writer());
            assertFalse(sync.tryAcquire(false), "a plain thread took the lock the flow holds");
            assertFalse(sync.release(Thread.currentThread(), false), "a plain thread released the flow's hold");

            CompletableFuture<String> thread = onThread(() -> {
                sync.acquire(false);
                try {
                    return "thread holds " + sync.isWriteHeldBy(Thread.currentThread()) + ", flow holds "
                            + sync.isWriteHeldBy(owner);
                } finally {
                    sync.release(OwnedSync.me(), false);
                }
            });
            awaitQueued(sync, 1);
            threadQueued.countDown();

            assertEquals("flow holds true 1", flow.get(DEADLINE_MS, TimeUnit.MILLISECONDS));
            assertEquals("thread holds true, flow holds false", thread.get(DEADLINE_MS, TimeUnit.MILLISECONDS));
            assertNull(sync.writer());
        } finally {
            scheduler.close();
            assertTrue(scheduler.awaitTermination(Duration.ofSeconds(10)));
        }
        assertEquals(0, scheduler.stats().running());
        assertEquals(0, scheduler.stats().suspended());
    }

    /**
     * Two threads take and release the lock in a loop (one through {@code enter}/{@code exit}, one re-entrantly now
     * and then) for {@value #RACE_MS} ms or {@value #RACE_ROUNDS} rounds each: the owner's CAS release races the other
     * thread's inflation and queueing. A lost hand-off leaves a thread waiting for ever (caught by the deadline); a
     * take that passes the owner, an overlap. Probabilistic by nature: the window is one CAS wide.
     */
    @Test
    void twoThreadsTakingAndReleasingInTurnNeverOverlapAndNeverStall() throws Exception {
        OwnedSync sync = new OwnedSync(false);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RACE_MS);
        CompletableFuture<?>[] done = new CompletableFuture<?>[2];
        for (int t = 0; t < done.length; t++) {
            boolean monitorStyle = t == 0;
            done[t] = onThread(() -> {
                int i = 0;
                for (; i < RACE_ROUNDS && (i % 1024 != 0 || System.nanoTime() < end); i++) {
                    Object me;
                    if (monitorStyle) {
                        me = sync.enter();
                    } else {
                        me = OwnedSync.me();
                        sync.acquire(false);
                        if (i % 3 == 0) {
                            sync.acquire(false);
                            sync.release(me, false);
                        }
                    }
                    if (inside.incrementAndGet() != 1) {
                        overlaps.incrementAndGet();
                    }
                    inside.decrementAndGet();
                    sync.release(me, false);
                }
                return i;
            });
        }
        for (int t = 0; t < done.length; t++) {
            assertTrue((Integer) done[t].get(RACE_MS + DEADLINE_MS, TimeUnit.MILLISECONDS) > 0, "thread " + t + " ran");
        }
        assertEquals(0, overlaps.get(), "holds overlapped");
        assertFalse(sync.isWriteLocked());
        assertEquals(0, sync.queueLength());
    }

    private static void awaitQueued(OwnedSync sync, int waiters) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DEADLINE_MS);
        while (sync.queueLength() < waiters) {
            if (System.nanoTime() > end) {
                fail("no " + waiters + " waiter(s) queued within " + DEADLINE_MS + " ms: " + sync.queueLength());
            }
            Thread.sleep(1);
        }
    }

    private static <T> CompletableFuture<T> onThread(Callable<T> task) {
        CompletableFuture<T> out = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                out.complete(task.call());
            } catch (Throwable e) {
                out.completeExceptionally(e);
            }
        }, "owned-sync-test");
        t.setDaemon(true);
        t.start();
        return out;
    }
}
