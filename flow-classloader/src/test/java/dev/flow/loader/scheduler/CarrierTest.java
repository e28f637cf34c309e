package dev.flow.loader.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.internal.SchedulerCore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Carriers ({@link FlowScheduler#carrierThreadFactory}): a flow woken on one runs there inline, one
 * flow at a time on its stack, a bounded number per wake-up, without touching the carrier's interrupt.
 * Shared carriers ({@link SchedulerCore#sharedCarrierThreadFactory}) do so for the flows of every
 * scheduler, each counted by its own.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CarrierTest {

    private final FlowScheduler scheduler = FlowScheduler.builder().workers(1).name("carrier-test").build();
    private final ExecutorService carrier = Executors.newSingleThreadExecutor(scheduler.carrierThreadFactory("carrier-test-io"));
    private final Queue<String> log = new ConcurrentLinkedQueue<>();
    private final List<FlowHandle<Object>> handles = new ArrayList<>();

    @AfterEach
    void nothingLeft() throws Exception {
        Schedulers.awaitAllDone(handles, Duration.ofSeconds(10));
        carrier.shutdown();
        assertTrue(carrier.awaitTermination(5, TimeUnit.SECONDS));
        // A JDK executor reports termination before its thread has exited.
        Schedulers.await(Duration.ofSeconds(5), () -> Schedulers.liveThreads("carrier-test-io") == 0,
                () -> "carrier thread still alive");
        Schedulers.awaitIdle(scheduler);
        Schedulers.assertCountsZero(scheduler.stats());
        scheduler.close();
        assertTrue(scheduler.awaitTermination(Duration.ofSeconds(5)));
        assertEquals(0, Schedulers.liveThreads("carrier-test"));
    }

    /** A thread of a shared carrier ({@code shared-io-1}), of no scheduler; shut down by the test. */
    private static ExecutorService sharedCarrier() {
        return Executors.newSingleThreadExecutor(SchedulerCore.sharedCarrierThreadFactory("shared-io", false));
    }

    private CompletableFuture<String> relay(String name, List<CompletableFuture<String>> outs) {
        CompletableFuture<String> in = new CompletableFuture<>();
        handles.add(scheduler.submit(Schedulers.fixture("Relay", name, in, outs, log)));
        return in;
    }

    private void awaitSuspended(int n) {
        Schedulers.await(Duration.ofSeconds(10), () -> scheduler.stats().suspended() == n, scheduler.stats()::toString);
    }

    @Test
    void aFlowWokenByACarrierRunsOnItAndAFlowItWakesRunsAfterItNotInsideIt() throws Exception {
        CompletableFuture<String> second = relay("b", List.of());
        CompletableFuture<String> first = relay("a", List.of(second));
        awaitSuspended(2);
        carrier.submit(() -> first.complete("go")).get(5, TimeUnit.SECONDS);
        Schedulers.awaitAllDone(handles, Duration.ofSeconds(5));
        assertEquals(List.of("a on carrier-test-io-1", "a done", "b on carrier-test-io-1", "b done"), List.copyOf(log));
    }

    @Test
    void aCarrierRunsABoundedNumberOfFlowsPerWakeUpAndHandsTheRestToWorkers() throws Exception {
        List<CompletableFuture<String>> outs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            outs.add(relay("b" + i, List.of()));
        }
        CompletableFuture<String> first = relay("a", outs);
        awaitSuspended(41);
        carrier.submit(() -> first.complete("go")).get(5, TimeUnit.SECONDS);
        Schedulers.awaitAllDone(handles, Duration.ofSeconds(5));
        List<String> onCarrier = log.stream().filter(s -> s.endsWith(" on carrier-test-io-1")).collect(Collectors.toList());
        List<String> onWorker = log.stream().filter(s -> s.endsWith(" on carrier-test-worker-0")).collect(Collectors.toList());
        assertEquals(32, onCarrier.size(), "a and the first 31 flows it woke: " + log);
        assertEquals(9, onWorker.size(), "the rest on the worker: " + log);
    }

    @Test
    void carriersAreNotDaemonThreadsWhoeverCreatesThem() throws Exception {
        ThreadFactory factory = scheduler.carrierThreadFactory("carrier-test-made");
        AtomicReference<Thread> made = new AtomicReference<>();
        Thread creator = new Thread(() -> made.set(factory.newThread(() -> { })));
        creator.setDaemon(true);
        creator.start();
        creator.join(5000);
        Thread t = made.get();
        t.start();
        t.join(5000);
        assertFalse(t.isDaemon(), "like MINA's own I/O threads");
        assertEquals("carrier-test-made-1", t.getName());
    }

    @Test
    void aFlowRunOnACarrierNeitherSeesNorClearsTheCarriersInterrupt() throws Exception {
        CompletableFuture<String> first = relay("a", List.of());
        awaitSuspended(1);
        Future<Boolean> stillInterrupted = carrier.submit(() -> {
            Thread.currentThread().interrupt();
            first.complete("go");
            return Thread.interrupted();
        });
        assertTrue(stillInterrupted.get(5, TimeUnit.SECONDS), "the carrier's own interrupt is kept");
        Schedulers.awaitAllDone(handles, Duration.ofSeconds(5));
        assertEquals(List.of("a on carrier-test-io-1", "a done"), List.copyOf(log));
    }

    @Test
    void aSharedCarrierRunsTheFlowsOfEverySchedulerItWakesEachCountedByItsOwn() throws Exception {
        ExecutorService shared = sharedCarrier();
        FlowScheduler other = FlowScheduler.builder().workers(1).name("carrier-test-other").build();
        try {
            CompletableFuture<String> ofOther = new CompletableFuture<>();
            FlowHandle<Object> b = other.submit(Schedulers.fixture("Relay", "b", ofOther, List.of(), log));
            CompletableFuture<String> first = relay("a", List.of());
            awaitSuspended(1);
            Schedulers.await(Duration.ofSeconds(10), () -> other.stats().suspended() == 1, other.stats()::toString);
            shared.submit(() -> first.complete("go") && ofOther.complete("go")).get(5, TimeUnit.SECONDS);
            Schedulers.awaitAllDone(List.of(b), Duration.ofSeconds(5));
            Schedulers.awaitAllDone(handles, Duration.ofSeconds(5));
            assertEquals(List.of("a on shared-io-1", "a done", "b on shared-io-1", "b done"), List.copyOf(log));
            Schedulers.awaitIdle(other);
            Schedulers.assertCountsZero(other.stats());
            assertEquals(1, other.stats().resumed(), other.stats().toString());
        } finally {
            shared.shutdown();
            assertTrue(shared.awaitTermination(5, TimeUnit.SECONDS));
            other.close();
            assertTrue(other.awaitTermination(Duration.ofSeconds(5)));
        }
    }

    @Test
    void aFlowOnASharedCarrierThatClosesItsOwnSchedulerDoesNotWaitForItself() throws Exception {
        ExecutorService shared = sharedCarrier();
        try {
            CompletableFuture<String> in = new CompletableFuture<>();
            handles.add(scheduler.submit(Schedulers.fixture("CloseOnWake", "a", in, scheduler, log)));
            awaitSuspended(1);
            shared.submit(() -> in.complete("go")).get(10, TimeUnit.SECONDS);
            Schedulers.awaitAllDone(handles, Duration.ofSeconds(10));
            assertEquals(List.of("a on shared-io-1", "a done"), List.copyOf(log));
            assertTrue(scheduler.awaitTermination(Duration.ofSeconds(5)));
        } finally {
            shared.shutdown();
            assertTrue(shared.awaitTermination(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void aDumpListsItsOwnFlowsRunningOnASharedCarrierAndNoOtherSchedulersDumpDoes() throws Exception {
        ExecutorService shared = sharedCarrier();
        FlowScheduler other = FlowScheduler.builder().workers(1).name("carrier-test-other").build();
        AtomicBoolean running = new AtomicBoolean();
        AtomicBoolean release = new AtomicBoolean();
        try {
            CompletableFuture<String> in = new CompletableFuture<>();
            handles.add(scheduler.submit(Schedulers.fixture("SpinOnWake", in, running, release), "spinner"));
            awaitSuspended(1);
            shared.submit(() -> in.complete("go"));
            Schedulers.await(Duration.ofSeconds(10), running::get, () -> "the flow to run on the shared carrier");
            String ours = scheduler.dump();
            String theirs = other.dump();
            release.set(true);
            assertTrue(ours.contains("running (1):\n  flow spinner on shared-io-1"), ours);
            assertTrue(theirs.contains("running (0):"), theirs);
        } finally {
            release.set(true);
            shared.shutdown();
            assertTrue(shared.awaitTermination(5, TimeUnit.SECONDS));
            other.close();
        }
    }
}
