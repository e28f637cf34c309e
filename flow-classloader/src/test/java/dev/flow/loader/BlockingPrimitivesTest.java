package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.UnsuspendableFrameException;
import flowtest.support.Spawn;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Flow handles and JDK primitives waited on inside flows on a single worker: they suspend instead of
 * holding the worker; held locks and calls without a suspendable form pin, reported by site.
 */
class BlockingPrimitivesTest {

    private static ContinuationClassLoader strict;
    private static ContinuationClassLoader lenient;
    private FlowScheduler scheduler;

    @BeforeAll
    static void loaders() {
        strict = ContinuationClassLoader.builder().include("flowtest.fixtures").strict(true).build();
        lenient = ContinuationClassLoader.builder().include("flowtest.fixtures").build();
    }

    @BeforeEach
    void oneWorker() {
        scheduler = FlowScheduler.builder().workers(1).name("primitives").build();
    }

    @AfterEach
    void idleAndClosed() throws InterruptedException {
        TestSupport.awaitIdle(scheduler);
        scheduler.close();
        assertTrue(scheduler.awaitTermination(Duration.ofSeconds(5)), "workers stopped");
    }

    @ParameterizedTest(name = "timed get: {0}")
    @CsvSource({"false", "true"})
    void waitingForASubFlowOnOneWorkerSuspendsInsteadOfDeadlocking(boolean timed) throws Exception {
        Callable<?> parent = lenient.newInstance(Callable.class, "flowtest.fixtures.JoinsSubFlow", scheduler, timed);
        long resumedBefore = scheduler.stats().resumed();
        assertEquals("child 21", scheduler.submit(parent).get(Duration.ofSeconds(10)));
        assertTrue(scheduler.stats().resumed() > resumedBefore, "the parent suspended");
    }

    @Test
    void subFlowGetTimeoutThrowsTheJdksTimeoutException() throws Exception {
        CompletableFuture<String> gate = new CompletableFuture<>();
        Callable<?> parent = lenient.newInstance(Callable.class, "flowtest.fixtures.SubFlowTimeout", scheduler, gate);
        Object thrown = scheduler.submit(parent).get(Duration.ofSeconds(10));
        gate.complete("open");
        TimeoutException jdk = assertThrows(TimeoutException.class,
                () -> new CompletableFuture<>().get(1, TimeUnit.MILLISECONDS));
        assertInstanceOf(TimeoutException.class, thrown);
        assertEquals(jdk.getMessage(), ((TimeoutException) thrown).getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "LockedAwait, LockedAwait.enter()V (line, Lock taken here is still held",
        "TakeInSynchronized, TakeInSynchronized.call()Ljava/lang/Object; (line, synchronized block holds a monitor",
        "TakeReadyInSynchronized, TakeReadyInSynchronized.call()Ljava/lang/Object; (line, synchronized block holds a monitor",
        "ConditionWait, ConditionWait.call()Ljava/lang/Object; (line, has no suspendable form"})
    void strictModeRefusesByTheSiteThatPins(String fixture, String site, String reason) {
        FlowHandle<Object> h = scheduler.submit(strict.newInstance(Callable.class, "flowtest.fixtures." + fixture));
        ExecutionException e = assertThrows(ExecutionException.class, () -> h.get(Duration.ofSeconds(10)));
        UnsuspendableFrameException u = assertInstanceOf(UnsuspendableFrameException.class, e.getCause());
        assertTrue(u.getMessage().contains("flowtest.fixtures." + site), u.getMessage());
        assertTrue(u.getMessage().contains(reason), u.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"LockedAwait, 7", "TakeInSynchronized, ready", "ConditionWait, true"})
    void lenientModeBlocksAndWarnsOncePerSite(String fixture, String expected) throws Exception {
        TestSupport.runsWithOneWarning(scheduler, lenient, "flowtest.fixtures." + fixture, expected);
    }

    @Test
    void lenientModeDoesNotReportAPinnedWaitThatNeedNotBlock() throws Exception {
        String name = "flowtest.fixtures.TakeReadyInSynchronized";
        int before = TestSupport.warningsAbout(name);
        Object r = scheduler.submit(lenient.newInstance(Callable.class, name)).get(Duration.ofSeconds(10));
        assertEquals("ready", r);
        assertEquals(before, TestSupport.warningsAbout(name), "an element was there: nothing blocked");
    }

    @Test
    void aLockReleasedBeforeTheAwaitDoesNotPin() throws Exception {
        String name = "flowtest.fixtures.LockedAwait";
        int before = TestSupport.warningsAbout(name);
        Callable<?> fixture = lenient.newInstance(Callable.class, name);
        assertEquals(7, fixture.call(), "outside a flow the lock is only taken and released");
        assertEquals(before, TestSupport.warningsAbout(name), "no flow, no report");
    }

    /**
     * The latency polling adds: a plain thread hands {@code System.nanoTime()} stamps to a flow in
     * {@code take()} at random gaps of 0 to 5 ms (long enough for the back-off to reach its 1 ms cap);
     * the same run with a plain-thread consumer is the reference. Prints both medians.
     */
    @Test
    void pollingAddsAboutHalfTheLongestPause() throws Exception {
        int n = 200;
        long[] flow = measure(n, true);
        long[] thread = measure(n, false);
        long flowMedian = flow[n / 2];
        System.out.printf("take() hand-off latency over %d items: flow median %d us, p90 %d us; plain thread median %d us,"
                        + " p90 %d us%n", n, flowMedian / 1000, flow[n * 9 / 10] / 1000, thread[n / 2] / 1000,
                thread[n * 9 / 10] / 1000);
        assertTrue(flowMedian < TimeUnit.MILLISECONDS.toNanos(20), "median " + flowMedian + " ns (expected: well under 20 ms)");
    }

    private long[] measure(int n, boolean inFlow) throws Exception {
        LinkedBlockingQueue<Long> queue = new LinkedBlockingQueue<>();
        Callable<?> consumer = lenient.newInstance(Callable.class, "flowtest.fixtures.QueueLatency", queue, n);
        CompletableFuture<Object> result = new CompletableFuture<>();
        if (inFlow) {
            scheduler.submit(consumer).toCompletionStage().whenComplete((v, t) -> complete(result, v, t));
        } else {
            Spawn.onThread(consumer).whenComplete((v, t) -> complete(result, v, t));
        }
        java.util.Random random = new java.util.Random(42);
        for (int i = 0; i < n; i++) {
            TimeUnit.MICROSECONDS.sleep(random.nextInt(5000));
            queue.put(System.nanoTime());
        }
        long[] late = (long[]) result.get(30, TimeUnit.SECONDS);
        Arrays.sort(late);
        assertNull(queue.poll(), "every item taken");
        return late;
    }

    private static void complete(CompletableFuture<Object> f, Object v, Throwable t) {
        if (t != null) {
            f.completeExceptionally(t);
        } else {
            f.complete(v);
        }
    }
}
