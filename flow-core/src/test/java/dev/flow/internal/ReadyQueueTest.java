package dev.flow.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ReadyQueue}: every flow added is taken exactly once, no wake-up is lost, idle workers are
 * woken one at a time and only when needed, interrupts are kept, no node is allocated per hand-off.
 */
class ReadyQueueTest {

    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(20);

    private static FlowState flow(String name) {
        return new FlowState(null, name);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    @Timeout(120)
    void everyFlowAddedByManyProducersIsTakenExactlyOnceWithoutALostWakeUp(int workers) throws Exception {
        // Each producer re-adds its own flows one at a time, each as soon as it was taken: the workers
        // run dry and park all the time, and every flow goes through the queue again and again.
        int producers = 8;
        int flowsPerProducer = 4;
        int rounds = 2000;
        ReadyQueue q = new ReadyQueue(workers);
        Map<FlowState, Integer> index = new IdentityHashMap<>();
        FlowState[] flows = new FlowState[producers * flowsPerProducer];
        for (int i = 0; i < flows.length; i++) {
            flows[i] = flow("f" + i);
            index.put(flows[i], i);
        }
        AtomicIntegerArray taken = new AtomicIntegerArray(flows.length);
        AtomicReference<Throwable> error = new AtomicReference<>();
        List<Thread> consumers = startConsumers(q, workers, error, (slot, f) -> taken.incrementAndGet(index.get(f)));
        List<Thread> producing = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int first = p * flowsPerProducer;
            producing.add(start("producer-" + p, error, () -> {
                long deadline = System.nanoTime() + DEADLINE_NANOS;
                for (int r = 0; r < rounds; r++) {
                    for (int i = first; i < first + flowsPerProducer; i++) {
                        q.add(flows[i]);
                    }
                    for (int i = first; i < first + flowsPerProducer; i++) {
                        int expected = r + 1;
                        int at = i;
                        awaitUntil(deadline, () -> taken.get(at) == expected,
                                () -> "flow " + at + " taken " + taken.get(at) + " times in round " + expected
                                        + " (a lost wake-up?), queued: " + q.size());
                    }
                }
            }));
        }
        for (Thread t : producing) {
            t.join(TimeUnit.NANOSECONDS.toMillis(DEADLINE_NANOS) * 2);
        }
        closeAndJoin(q, consumers, error);
        for (int i = 0; i < flows.length; i++) {
            assertEquals(rounds, taken.get(i), "times flow " + i + " was taken");
        }
        assertEquals(0, q.size());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4})
    @Timeout(120)
    void aBurstFromManyProducersIsTakenExactlyOnceAndInOrderPerProducer(int workers) throws Exception {
        int producers = 6;
        int perProducer = 5000;
        ReadyQueue q = new ReadyQueue(workers);
        Map<FlowState, Integer> index = new IdentityHashMap<>();
        FlowState[][] flows = new FlowState[producers][perProducer];
        for (int p = 0; p < producers; p++) {
            for (int i = 0; i < perProducer; i++) {
                flows[p][i] = flow(p + "-" + i);
                index.put(flows[p][i], p * perProducer + i);
            }
        }
        AtomicIntegerArray taken = new AtomicIntegerArray(producers * perProducer);
        AtomicReference<Throwable> error = new AtomicReference<>();
        ConcurrentLinkedQueue<String> disorder = new ConcurrentLinkedQueue<>();
        int[][] lastSeen = new int[workers][producers];
        for (int[] seen : lastSeen) {
            Arrays.fill(seen, -1);
        }
        List<Thread> threads = startConsumers(q, workers, error, (slot, f) -> {
            int id = index.get(f);
            taken.incrementAndGet(id);
            int p = id / perProducer;
            int i = id % perProducer;
            if (i <= lastSeen[slot][p]) {
                disorder.add("worker " + slot + " took " + f + " after " + p + "-" + lastSeen[slot][p]);
            }
            lastSeen[slot][p] = i;
        });
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> producing = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            FlowState[] mine = flows[p];
            producing.add(start("producer-" + p, error, () -> {
                go.await();
                for (FlowState f : mine) {
                    q.add(f);
                }
            }));
        }
        go.countDown();
        for (Thread t : producing) {
            t.join(TimeUnit.NANOSECONDS.toMillis(DEADLINE_NANOS));
        }
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        awaitUntil(deadline, q::isEmpty, () -> "queued after the burst: " + q.size());
        closeAndJoin(q, threads, error);
        for (int i = 0; i < taken.length(); i++) {
            assertEquals(1, taken.get(i), "times flow " + i + " was taken");
        }
        assertTrue(disorder.isEmpty(), () -> "out of order: " + disorder.peek());
    }

    @Test
    @Timeout(60)
    void anAddWakesExactlyOneOfTheParkedWorkers() throws Exception {
        ReadyQueue q = new ReadyQueue(4);
        ConcurrentLinkedQueue<FlowState> got = new ConcurrentLinkedQueue<>();
        AtomicReference<Throwable> error = new AtomicReference<>();
        List<Thread> threads = startConsumers(q, 4, error, (slot, f) -> got.add(f));
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        awaitParked(deadline, threads);
        FlowState f = flow("one");
        q.add(f);
        awaitUntil(deadline, () -> got.size() == 1, () -> "taken: " + got);
        awaitParked(deadline, threads);
        assertSame(f, got.peek());
        assertEquals(1, q.wakeups(), "workers woken for one flow");
        closeAndJoin(q, threads, error);
    }

    @Test
    @Timeout(60)
    void aWokenWorkerThatLeavesFlowsBehindWakesAnotherForThem() throws Exception {
        // The first add wakes one worker, which counts as searching: the next two wake nobody. That
        // worker takes the first flow and blocks in it (a pinned flow): the other must get the rest.
        ReadyQueue q = new ReadyQueue(2);
        FlowState pinned = flow("pinned");
        CountDownLatch unpin = new CountDownLatch(1);
        ConcurrentLinkedQueue<FlowState> got = new ConcurrentLinkedQueue<>();
        AtomicReference<Throwable> error = new AtomicReference<>();
        List<Thread> threads = startConsumers(q, 2, error, (slot, f) -> {
            got.add(f);
            if (f == pinned) {
                unpin.await();
            }
        });
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        awaitParked(deadline, threads);
        q.add(pinned);
        q.add(flow("a"));
        q.add(flow("b"));
        awaitUntil(deadline, () -> got.size() == 3, () -> "taken while one worker is pinned: " + got.size()
                + " of 3, queued: " + q.size());
        unpin.countDown();
        closeAndJoin(q, threads, error);
    }

    @Test
    @Timeout(60)
    void aWorkerThatDoesNotSpinPollsBeforeItParks() throws Exception {
        ReadyQueue q = new ReadyQueue(1, 0);
        List<FlowState> got = Collections.synchronizedList(new ArrayList<>());
        AtomicReference<Throwable> error = new AtomicReference<>();
        List<Thread> threads = startConsumers(q, 1, error, (slot, f) -> got.add(f));
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        for (int i = 0; i < 1000; i++) {
            q.add(flow("f" + i));
            int expected = i + 1;
            awaitUntil(deadline, () -> got.size() == expected, () -> "taken: " + got.size() + " of " + expected
                    + ", queued: " + q.size());
        }
        closeAndJoin(q, threads, error);
    }

    @Test
    @Timeout(60)
    void addsWhileNoWorkerIsParkedWakeNobody() throws Exception {
        ReadyQueue q = new ReadyQueue(2);
        for (int i = 0; i < 1000; i++) {
            q.add(flow("f" + i));
        }
        for (int i = 0; i < 1000; i++) {
            assertEquals("flow f" + i, q.take(i % 2).toString());
        }
        assertEquals(0, q.wakeups());
        assertTrue(q.isEmpty());
    }

    @Test
    @Timeout(60)
    void closeWakesParkedWorkersOnlyAfterTheQueuedFlowsAreTaken() throws Exception {
        ReadyQueue q = new ReadyQueue(3);
        List<FlowState> got = Collections.synchronizedList(new ArrayList<>());
        AtomicReference<Throwable> error = new AtomicReference<>();
        List<Thread> threads = startConsumers(q, 3, error, (slot, f) -> got.add(f));
        awaitParked(System.nanoTime() + DEADLINE_NANOS, threads);
        for (int i = 0; i < 100; i++) {
            q.add(flow("f" + i));
        }
        closeAndJoin(q, threads, error);
        assertEquals(100, got.size());
        assertNull(q.take(0), "take on a closed, empty queue");
    }

    @Test
    @Timeout(60)
    void anInterruptOfAParkedWorkerIsKeptWithoutEndingItsWait() throws Exception {
        AtomicReference<Throwable> error = new AtomicReference<>();
        AtomicReference<FlowState> got = new AtomicReference<>();
        AtomicReference<Boolean> interruptedAfterTake = new AtomicReference<>();
        ReadyQueue q = new ReadyQueue(1);
        Thread worker = start("consumer", error, () -> {
            got.set(q.take(0));
            interruptedAfterTake.set(Thread.interrupted());
        });
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        awaitParked(deadline, List.of(worker));
        worker.interrupt();
        // It parks again (it would stay runnable if park kept returning on the interrupt status).
        awaitParked(deadline, List.of(worker));
        assertNull(got.get(), "take returned without a flow");
        FlowState f = flow("after-interrupt");
        q.add(f);
        worker.join(TimeUnit.NANOSECONDS.toMillis(DEADLINE_NANOS));
        if (error.get() != null) {
            throw new AssertionError(error.get());
        }
        assertSame(f, got.get());
        assertEquals(Boolean.TRUE, interruptedAfterTake.get(), "interrupt status after take");
    }

    @Test
    void snapshotListsTheQueuedFlowsInOrder() {
        ReadyQueue q = new ReadyQueue(1);
        FlowState a = flow("a");
        FlowState b = flow("b");
        FlowState c = flow("c");
        q.add(a);
        q.add(b);
        q.add(c);
        assertEquals(List.of(a, b, c), q.snapshot());
        assertSame(a, q.poll());
        assertEquals(List.of(b, c), q.snapshot());
        assertEquals(2, q.size());
        assertSame(b, q.poll());
        assertSame(c, q.poll());
        assertEquals(List.of(), q.snapshot());
        assertNull(q.poll());
        q.add(a);
        assertEquals(List.of(a), q.snapshot());
    }

    @Test
    void addingAndTakingAFlowAllocatesNoQueueNode() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        ReadyQueue q = new ReadyQueue(1);
        FlowState f = flow("f");
        FlowState g = flow("g");
        int cycles = 100_000;
        for (int i = 0; i < cycles; i++) {
            cycle(q, f, g);
        }
        long before = mx.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < cycles; i++) {
            cycle(q, f, g);
        }
        long bytes = mx.getCurrentThreadAllocatedBytes() - before;
        // A node per hand-off (as in LinkedBlockingQueue) would be 16 to 32 bytes per add.
        assertTrue(bytes < cycles, () -> bytes + " bytes allocated for " + cycles + " cycles of two adds and takes"
                + " (expected: < " + cycles + ")");
    }

    private static void cycle(ReadyQueue q, FlowState f, FlowState g) {
        q.add(f);
        q.add(g);
        if (q.take(0) != f || q.take(0) != g) {
            fail("out of order");
        }
    }

    /** What a consumer does with each flow it takes. */
    private interface Handler {
        void handle(int slot, FlowState f) throws Exception;
    }

    private static List<Thread> startConsumers(ReadyQueue q, int workers, AtomicReference<Throwable> error,
                                               Handler handler) {
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            int slot = w;
            threads.add(start("consumer-" + w, error, () -> {
                for (FlowState f; (f = q.take(slot)) != null;) {
                    handler.handle(slot, f);
                }
            }));
        }
        return threads;
    }

    /** Closes {@code q}, waits for its consumers to end and rethrows the first failure of a thread. */
    private static void closeAndJoin(ReadyQueue q, List<Thread> consumers, AtomicReference<Throwable> error)
            throws InterruptedException {
        q.close();
        for (Thread t : consumers) {
            t.join(TimeUnit.NANOSECONDS.toMillis(DEADLINE_NANOS));
            assertTrue(!t.isAlive(), t.getName() + " still alive after close");
        }
        if (error.get() != null) {
            throw new AssertionError(error.get());
        }
    }

    /** A body that may throw; its failure is kept in the test's error slot. */
    private interface Body {
        void run() throws Exception;
    }

    private static Thread start(String name, AtomicReference<Throwable> error, Body body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                error.compareAndSet(null, e);
            }
        }, "ready-queue-test-" + name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void awaitParked(long deadline, List<Thread> threads) throws InterruptedException {
        for (Thread t : threads) {
            awaitUntil(deadline, () -> t.getState() == Thread.State.WAITING, () -> t.getName() + " not parked: " + t.getState());
        }
    }

    private static void awaitUntil(long deadline, BooleanSupplier condition, Supplier<String> message)
            throws InterruptedException {
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail(message.get());
            }
            LockSupport.parkNanos(20_000);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }
}
