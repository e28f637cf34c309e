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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Dispatch#ADAPTIVE}, a connector's default: the I/O threads of one connector resume the strict
 * client flows of every scheduler whose runs are short, each on its own scheduler's behalf; lenient flows
 * resume on workers; a flow may close its own connector there.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
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
        return h.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
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
        assertTrue(isIoThread(last(threads)), MAX_LINES + " echoes, none read on the I/O thread: " + threads);
    }

    @Test
    void aLenientClientFlowAlwaysResumesOnWorkers() throws Exception {
        FlowScheduler s = scheduler("adaptive-client");
        List<String> threads = threads(client(LENIENT, s, connector(FlowConnector.builder()), 50, false, List.of()));
        assertEquals(50, threads.size());
        for (String t : threads) {
            assertTrue(t.startsWith("adaptive-client-worker"), "an echo read on " + t + ": " + threads);
        }
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
