package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.SuspendPolicy;
import dev.flow.loader.ContinuationClassLoader;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Dispatch#ADAPTIVE}, a connector's default: the I/O threads of one connector resume the client
 * flows of every scheduler whose runs are short, each on its own scheduler's behalf; a pinned wait there
 * hands the I/O thread's other connections to another thread; a flow may close its own connector there.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FlowConnectorAdaptiveDispatchTest {

    private static final ContinuationClassLoader STRICT = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(true).build();
    private static final ContinuationClassLoader LENIENT = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(false).build();
    private static final int MAX_LINES = 200;

    private final List<FlowScheduler> schedulers = new ArrayList<>();
    private final List<FlowConnector> connectors = new ArrayList<>();
    private final Queue<String> outcomes = new ConcurrentLinkedQueue<>();
    private final FlowServer echo;

    FlowConnectorAdaptiveDispatchTest() throws Exception {
        echo = FlowServer.builder().threadPerSession().handler(LENIENT, "flowtest.mina.LineEcho", outcomes)
                .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
    }

    @AfterEach
    void nothingLeft() throws Exception {
        try {
            for (FlowConnector c : connectors) {
                c.close();
            }
            echo.close();
            for (FlowScheduler s : schedulers) {
                Conditions.await("the scheduler to be idle", () -> s.stats().isIdle(), () -> s.stats().toString());
                FlowStats st = s.stats();
                assertEquals(0, st.active() + st.running() + st.suspended() + st.queued(), st.toString());
            }
        } finally {
            for (FlowScheduler s : schedulers) {
                s.close();
                assertTrue(s.awaitTermination(Duration.ofSeconds(5)));
            }
        }
    }

    private FlowScheduler scheduler(String name) {
        FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name(name).build();
        schedulers.add(s);
        return s;
    }

    private FlowConnector connector(FlowConnector.Builder b) {
        FlowConnector c = b.ioProcessors(1).build();
        connectors.add(c);
        return c;
    }

    /** Runs {@code ThreadClient} (loaded by {@code loader}) on {@code scheduler} through {@code connector}. */
    @SuppressWarnings("unchecked")
    private FlowHandle<List<String>> client(ContinuationClassLoader loader, FlowScheduler scheduler, FlowConnector connector,
            int maxLines, boolean untilIoThread, List<AutoCloseable> toClose) throws Exception {
        Class<? extends Callable<List<String>>> c =
                (Class<? extends Callable<List<String>>>) loader.loadClass("flowtest.mina.ThreadClient");
        return connector.submit(scheduler, c, echo.localAddress(), maxLines, untilIoThread, toClose);
    }

    private static List<String> threads(FlowHandle<List<String>> h) throws Exception {
        return h.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private static String last(List<String> threads) {
        return threads.get(threads.size() - 1);
    }

    private static boolean isIoThread(String name) {
        return name.contains("NioProcessor");
    }

    @Test
    void aStrictClientFlowWhoseRunsAreShortResumesOnItsConnectorsIoThreadByDefault() throws Exception {
        FlowScheduler s = scheduler("adaptive-client");
        List<String> threads = threads(client(STRICT, s, connector(FlowConnector.builder()), MAX_LINES, true, List.of()));
        assertTrue(isIoThread(last(threads)), threads.size() + " echoes, none read on the I/O thread; the last on " + last(threads));
    }

    @Test
    void aLenientClientFlowWhoseRunsAreShortResumesOnItsConnectorsIoThreadByDefault() throws Exception {
        FlowScheduler s = scheduler("adaptive-client");
        List<String> threads = threads(client(LENIENT, s, connector(FlowConnector.builder()), MAX_LINES, true, List.of()));
        assertTrue(isIoThread(last(threads)), threads.size() + " echoes, none read on the I/O thread; the last on " + last(threads));
    }

    /**
     * A lenient client flow that blocks in a pinned wait on its connector's I/O thread hands the thread's
     * loop to another: another client flow of that connector is still served meanwhile, and the pinned
     * flow resumes on workers afterwards.
     */
    @Test
    @SuppressWarnings("unchecked")
    void aLenientClientFlowsPinnedWaitOnTheIoThreadHandsTheConnectorsOtherConnectionsToAnotherThread() throws Exception {
        FlowScheduler s = scheduler("adaptive-client");
        FlowConnector connector = connector(FlowConnector.builder());
        CompletableFuture<String> pinnedOn = new CompletableFuture<>();
        CompletableFuture<String> gate = new CompletableFuture<>();
        Class<? extends Callable<List<String>>> pinning =
                (Class<? extends Callable<List<String>>>) LENIENT.loadClass("flowtest.mina.PinningClient");
        FlowHandle<List<String>> pinned = connector.submit(s, pinning, echo.localAddress(), MAX_LINES, pinnedOn, gate, 20);
        try {
            assertTrue(isIoThread(pinnedOn.get(30, TimeUnit.SECONDS)), "the pinned wait is on the I/O thread: " + pinnedOn);
            List<String> other = threads(client(LENIENT, s, connector, MAX_LINES, true, List.of()));
            assertTrue(last(other).contains("-standin-"), "the other client's echoes, last on another I/O thread: " + other);
        } finally {
            gate.complete("open");
        }
        List<String> threads = threads(pinned);
        int at = threads.indexOf(threads.stream().filter(t -> t.startsWith("pinned on ")).findFirst().orElseThrow());
        String blocked = threads.get(at).substring("pinned on ".length());
        assertTrue(isIoThread(blocked), "the pinned wait was on the I/O thread: " + threads);
        // The run goes on on the blocked thread until the flow suspends; every wake-up after is on a worker.
        for (String t : threads.subList(at + 1, threads.size())) {
            assertTrue(t.equals(blocked) || t.startsWith("adaptive-client-worker"),
                    "an echo after the pinned wait read on " + t + ": " + threads);
        }
        assertTrue(last(threads).startsWith("adaptive-client-worker"), "the last echo read on a worker: " + threads);
        assertEquals(20, threads.size() - at - 1);
    }

    @Test
    void withTheWorkersDispatchAStrictClientFlowResumesOnWorkers() throws Exception {
        FlowScheduler s = scheduler("adaptive-client");
        List<String> threads = threads(client(STRICT, s, connector(FlowConnector.builder().dispatch(Dispatch.WORKERS)),
                50, false, List.of()));
        for (String t : threads) {
            assertTrue(t.startsWith("adaptive-client-worker"), "an echo read on " + t + ": " + threads);
        }
    }

    @Test
    void oneConnectorsIoThreadRunsTheClientFlowsOfTwoSchedulers() throws Exception {
        FlowConnector connector = connector(FlowConnector.builder());
        FlowHandle<List<String>> a = client(STRICT, scheduler("adaptive-a"), connector, MAX_LINES, true, List.of());
        FlowHandle<List<String>> b = client(STRICT, scheduler("adaptive-b"), connector, MAX_LINES, true, List.of());
        List<String> ofA = threads(a);
        List<String> ofB = threads(b);
        assertTrue(isIoThread(last(ofA)), "a: " + ofA);
        assertTrue(isIoThread(last(ofB)), "b: " + ofB);
        assertEquals(last(ofA), last(ofB), "one I/O thread");
        for (FlowScheduler s : schedulers) {
            Conditions.await("the scheduler to be idle", () -> s.stats().isIdle(), () -> s.stats().toString());
            assertEquals(1, s.stats().completed(), s.stats().toString());
        }
    }

    @Test
    void onlyTheNamedSchedulersFlowsResumeOnTheIoThreadsWhenTheDispatchNamesOne() throws Exception {
        FlowScheduler named = scheduler("adaptive-named");
        FlowScheduler other = scheduler("adaptive-other");
        FlowConnector connector = connector(FlowConnector.builder().dispatch(Dispatch.ADAPTIVE, named));
        List<String> ofNamed = threads(client(STRICT, named, connector, MAX_LINES, true, List.of()));
        List<String> ofOther = threads(client(STRICT, other, connector, 50, false, List.of()));
        assertTrue(isIoThread(last(ofNamed)), "named: " + ofNamed);
        for (String t : ofOther) {
            assertTrue(t.startsWith("adaptive-other-worker"), "an echo read on " + t + ": " + ofOther);
        }
    }

    @Test
    void aDaemonConnectorsIoThreadsAreDaemonThreads() throws Exception {
        FlowScheduler s = scheduler("adaptive-client");
        List<String> threads = threads(client(STRICT, s, connector(FlowConnector.builder().daemonThreads(true)),
                MAX_LINES, true, List.of()));
        assertTrue(isIoThread(last(threads)) && last(threads).endsWith(" daemon"), "last echo read on " + last(threads));
    }

    @Test
    void aClientFlowOnItsConnectorsIoThreadThatClosesTheConnectorDoesNotWaitForItself() throws Exception {
        FlowScheduler s = scheduler("adaptive-client");
        FlowConnector connector = connector(FlowConnector.builder());
        List<String> threads = threads(client(STRICT, s, connector, MAX_LINES, true, List.of(connector)));
        assertTrue(isIoThread(last(threads)), "closed on " + last(threads));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> connector.connect(echo.localAddress()));
        assertEquals("connector is closed", e.getMessage());
        Conditions.await("the connector's sessions to close", () -> connector.openSessions() == 0, connector::toString);
    }
}
