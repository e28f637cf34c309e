package dev.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker about to block in a pinned wait (here: the waits of tasks that were not instrumented) hands its
 * place to another thread, up to {@code maxPinnedThreads} beyond the workers; the blocked thread keeps its
 * flow, and becomes a spare afterwards.
 */
@Timeout(60)
class PinnedHandOffTest {

    @Test
    void aTaskBlockedInAPinnedWaitLeavesItsWorkerToTheOtherFlows() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().workers(1).name("handoff").build()) {
            CompletableFuture<Integer> f = new CompletableFuture<>();
            AtomicReference<Thread> before = new AtomicReference<>();
            AtomicReference<Thread> after = new AtomicReference<>();
            FlowHandle<Integer> waiter = s.submit(() -> {
                before.set(Thread.currentThread());
                int v = Flow.await(f);
                after.set(Thread.currentThread());
                return v + 1;
            });
            AtomicReference<Thread> completer = new AtomicReference<>();
            FlowHandle<Boolean> other = s.submit(() -> {
                completer.set(Thread.currentThread());
                return f.complete(41);
            });
            try {
                assertTrue(other.get(Duration.ofSeconds(10)), "the second flow ran while the first one waited");
            } finally {
                f.complete(0);
            }
            assertEquals(42, waiter.get(Duration.ofSeconds(10)));
            assertSame(before.get(), after.get(), "the waiting flow kept its thread");
            assertNotSame(before.get(), completer.get());
            assertTrue(s.isWorker(before.get()) && s.isWorker(completer.get()));
            FlowSchedulerTest.awaitIdle(s);
            assertEquals(1, s.stats().pinnedHandOffs(), s.stats().toString());
            assertEquals(1, s.stats().workersAlive(), s.stats().toString());
        }
    }

    @Test
    void tasksThatWaitForEachOtherWhilePinnedAllRunOnOneWorker() throws Exception {
        int parties = 20;
        try (FlowScheduler s = FlowScheduler.builder().workers(1).name("rendezvous").build()) {
            AtomicInteger arrived = new AtomicInteger();
            CompletableFuture<Integer> all = new CompletableFuture<>();
            List<FlowHandle<Integer>> handles = new ArrayList<>();
            for (int i = 0; i < parties; i++) {
                handles.add(s.submit(() -> {
                    if (arrived.incrementAndGet() == parties) {
                        all.complete(parties);
                    }
                    return Flow.await(all);
                }));
            }
            try {
                for (FlowHandle<Integer> h : handles) {
                    assertEquals(parties, h.get(Duration.ofSeconds(10)));
                }
            } finally {
                all.complete(-1);
            }
            FlowSchedulerTest.awaitIdle(s);
            assertEquals(parties - 1, s.stats().pinnedHandOffs(), s.stats().toString());
        }
        assertEquals(Set.of(), threadsNamed("rendezvous-worker-"), "every worker thread ended with close()");
    }

    @Test
    void atTheLimitAPinnedWaitHoldsItsWorker() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().workers(1).maxPinnedThreads(1).name("limit").build()) {
            CompletableFuture<Integer> a = new CompletableFuture<>();
            CompletableFuture<Integer> b = new CompletableFuture<>();
            FlowHandle<Integer> first = s.submit(() -> Flow.await(a));
            AtomicReference<Thread> secondThread = new AtomicReference<>();
            FlowHandle<Integer> second = s.submit(() -> {
                secondThread.set(Thread.currentThread());
                return Flow.await(b);
            });
            FlowHandle<String> third = s.submit(() -> "third");
            try {
                // The first hands its worker to a new thread; the second, at the limit, keeps it: the third waits.
                await(() -> secondThread.get() != null && secondThread.get().getState() == Thread.State.WAITING, s);
                assertEquals(2, s.stats().running(), s.stats().toString());
                assertEquals(1, s.stats().queued(), s.stats().toString());
                assertEquals(1, s.stats().pinnedHandOffs(), s.stats().toString());
                assertEquals(2, threadsNamed("limit-worker-").size(), threadsNamed("limit-worker-").toString());
                assertFalse(third.isDone());
            } finally {
                b.complete(2);
            }
            try {
                assertEquals("third", third.get(Duration.ofSeconds(10)));
                assertEquals(2, second.get(Duration.ofSeconds(10)));
                assertTrue(a.complete(1));
            } finally {
                a.complete(-1);
            }
            assertEquals(1, first.get(Duration.ofSeconds(10)));
            FlowSchedulerTest.awaitIdle(s);
        }
    }

    @Test
    void withNoPinnedThreadsAPinnedWaitHoldsItsWorker() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().workers(1).maxPinnedThreads(0).name("none").build()) {
            CompletableFuture<Integer> f = new CompletableFuture<>();
            FlowHandle<Integer> waiter = s.submit(() -> Flow.await(f));
            FlowHandle<String> other = s.submit(() -> "other");
            try {
                await(() -> s.stats().running() == 1 && s.stats().queued() == 1, s);
                assertFalse(other.isDone());
            } finally {
                f.complete(7);
            }
            assertEquals(7, waiter.get(Duration.ofSeconds(10)));
            assertEquals("other", other.get(Duration.ofSeconds(10)));
            FlowSchedulerTest.awaitIdle(s);
            assertEquals(0, s.stats().pinnedHandOffs());
            assertEquals(Set.of("none-worker-0"), threadsNamed("none-worker-"));
        }
    }

    @Test
    void aWorkerThatHandedItsPlaceOffStandsInForTheNextOne() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().workers(1).name("spare").build()) {
            CompletableFuture<Integer> f = new CompletableFuture<>();
            AtomicReference<Thread> firstThread = new AtomicReference<>();
            FlowHandle<Integer> first = s.submit(() -> {
                firstThread.set(Thread.currentThread());
                return Flow.await(f);
            });
            try {
                s.submit(() -> f.complete(1)).get(Duration.ofSeconds(10));
            } finally {
                f.complete(-1);
            }
            assertEquals(1, first.get(Duration.ofSeconds(10)));
            // Its flow ended, the first thread waits as a spare.
            await(() -> firstThread.get().getState() == Thread.State.TIMED_WAITING, s);
            CompletableFuture<Integer> g = new CompletableFuture<>();
            AtomicReference<Thread> standIn = new AtomicReference<>();
            FlowHandle<Integer> second = s.submit(() -> Flow.await(g));
            FlowHandle<Boolean> third = s.submit(() -> {
                standIn.set(Thread.currentThread());
                return g.complete(2);
            });
            try {
                assertTrue(third.get(Duration.ofSeconds(10)));
            } finally {
                g.complete(-1);
            }
            assertEquals(2, second.get(Duration.ofSeconds(10)));
            assertSame(firstThread.get(), standIn.get(), "the spare stood in");
            FlowSchedulerTest.awaitIdle(s);
            assertEquals(2, s.stats().pinnedHandOffs());
            assertEquals(Set.of("spare-worker-0", "spare-worker-1"), threadsNamed("spare-worker-"));
        }
    }

    @Test
    void anUninstrumentedTaskHandsOffUnderTheNeverPolicyToo() throws Exception {
        // never() keeps the waits of flows that could suspend on their worker (the loader's tests); a task
        // that cannot suspend is pinned whatever the policy.
        try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.never()).name("never").build()) {
            CompletableFuture<Integer> f = new CompletableFuture<>();
            FlowHandle<Integer> waiter = s.submit(() -> Flow.await(f));
            try {
                assertTrue(s.submit(() -> f.complete(3)).get(Duration.ofSeconds(10)));
            } finally {
                f.complete(-1);
            }
            assertEquals(3, waiter.get(Duration.ofSeconds(10)));
            FlowSchedulerTest.awaitIdle(s);
            assertEquals(1, s.stats().pinnedHandOffs());
        }
    }

    private static Set<String> threadsNamed(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith(prefix)).collect(Collectors.toSet());
    }

    private static void await(BooleanSupplier condition, FlowScheduler s) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not reached: " + s.stats());
            }
            Thread.yield();
        }
    }
}
