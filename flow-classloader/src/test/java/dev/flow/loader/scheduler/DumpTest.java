package dev.flow.loader.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Issue 8.11: a dump names every flow, what it waits for and where. */
class DumpTest {

    @Test
    @Timeout(60)
    void dumpShowsRunningSuspendedAndQueuedFlowsWithTheirStacks() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().workers(1).name("dumped").recordStacks(true).build()) {
            CompletableFuture<String> greeting = new CompletableFuture<>();
            FlowHandle<Object> parked = s.submit(Schedulers.fixture("Parked", greeting), "session-42");
            Schedulers.await(Duration.ofSeconds(10), () -> s.stats().suspended() == 1, () -> s.stats().toString());
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            FlowHandle<Object> busy = s.submit(() -> {
                holding.countDown();
                release.await();
                return "busy";
            }, "busy-one");
            holding.await();
            FlowHandle<Void> queued = s.start(() -> { });
            String dump;
            try {
                dump = s.dump();
            } finally {
                release.countDown();
            }
            assertTrue(dump.contains("running (1):\n  flow busy-one on dumped-worker-0"), dump);
            assertTrue(dump.contains("dev.flow.loader.scheduler.DumpTest.lambda$"), dump);
            assertTrue(dump.contains("suspended (1):\n  flow session-42, suspended for "), dump);
            assertTrue(dump.contains("on java.util.concurrent.CompletableFuture"), dump);
            assertTrue(dump.contains("//flowtest.scheduler.Parked.waitForGreeting(Parked.java:"), dump);
            assertTrue(dump.contains("//flowtest.scheduler.Parked.call(Parked.java:"), dump);
            assertTrue(dump.contains("queued (1):\n  flow@"), dump);
            s.logDump();
            greeting.complete("hello");
            assertEquals("hello", parked.get(Duration.ofSeconds(10)));
            assertEquals("busy", busy.get(Duration.ofSeconds(10)));
            queued.get(Duration.ofSeconds(10));
            Schedulers.awaitIdle(s);
            assertTrue(s.dump().contains("running (0):\nsuspended (0):\nqueued (0):\n"), s.dump());
        }
    }

    /** The coarse clock's period (SchedulerCore.TICK_NANOS): how much too long "suspended for" may be. */
    private static final long TICK_MS = 10;

    @Test
    @Timeout(60)
    void suspendedForIsTheRealTimeOfTheSuspensionAlsoAfterTheSchedulerWasIdle() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().workers(1).name("since").build()) {
            CompletableFuture<String> first = new CompletableFuture<>();
            long submitted = System.nanoTime();
            FlowHandle<Object> long1 = s.submit(Schedulers.fixture("Parked", first), "long");
            Schedulers.await(Duration.ofSeconds(10), () -> suspendedForMillis(s.dump(), "long") >= 100, s::dump);
            long reported = suspendedForMillis(s.dump(), "long");
            long elapsed = (System.nanoTime() - submitted) / 1_000_000L;
            assertTrue(reported <= elapsed + TICK_MS + 1, "suspended for " + reported + " ms (expected: <= " + (elapsed + TICK_MS + 1) + " ms)");
            first.complete("one");
            assertEquals("one", long1.get(Duration.ofSeconds(10)));
            long idleFrom = System.nanoTime();
            Schedulers.await(Duration.ofSeconds(10), () -> System.nanoTime() - idleFrom >= 300_000_000L, () -> "idle");
            CompletableFuture<String> second = new CompletableFuture<>();
            long submittedAgain = System.nanoTime();
            FlowHandle<Object> short1 = s.submit(Schedulers.fixture("Parked", second), "short");
            Schedulers.await(Duration.ofSeconds(10), () -> s.stats().suspended() == 1, () -> s.stats().toString());
            long reportedAgain = suspendedForMillis(s.dump(), "short");
            long elapsedAgain = (System.nanoTime() - submittedAgain) / 1_000_000L;
            assertTrue(reportedAgain >= 0 && reportedAgain <= elapsedAgain + TICK_MS + 1,
                    "suspended for " + reportedAgain + " ms (expected: 0.." + (elapsedAgain + TICK_MS + 1) + " ms)");
            second.complete("two");
            assertEquals("two", short1.get(Duration.ofSeconds(10)));
            Schedulers.awaitIdle(s);
        }
    }

    private static long suspendedForMillis(String dump, String flowName) {
        String prefix = "  flow " + flowName + ", suspended for ";
        int i = dump.indexOf(prefix);
        if (i < 0) {
            return -1;
        }
        int from = i + prefix.length();
        return Long.parseLong(dump.substring(from, dump.indexOf(" ms", from)));
    }

    @Test
    @Timeout(60)
    void withoutRecordedStacksTheDumpSaysHowToGetThem() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().name("nostacks").build()) {
            CompletableFuture<String> greeting = new CompletableFuture<>();
            FlowHandle<Object> parked = s.submit(Schedulers.fixture("Parked", greeting));
            Schedulers.await(Duration.ofSeconds(10), () -> s.stats().suspended() == 1, () -> s.stats().toString());
            assertTrue(s.dump().contains("(stack not recorded: FlowScheduler.Builder.recordStacks(true))"), s.dump());
            greeting.complete("hi");
            assertEquals("hi", parked.get(Duration.ofSeconds(10)));
            Schedulers.awaitIdle(s);
        }
    }
}
