package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.TransportConfig;
import dev.flow.loader.ContinuationClassLoader;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A lenient server whose handler pins at every read ({@code flowtest.mina.SynchronizedEcho}: each read inside
 * {@code synchronized}), on one worker: a session waiting for its peer holds a thread, not the worker, up to
 * the scheduler's {@code maxPinnedThreads}; beyond it the waits hold the worker until they time out.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FlowServerPinnedSessionsTest {

    private static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress(Pairs.LOOPBACK, 0);
    private static final ContinuationClassLoader LENIENT = ContinuationClassLoader.builder()
            .include("flowtest.mina").build();
    private static final String HANDLER = "flowtest.mina.SynchronizedEcho";

    private final List<FlowServer> servers = new ArrayList<>();
    private final List<LineSocketClient> clients = new ArrayList<>();
    private final Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
    private FlowScheduler scheduler;

    @AfterEach
    void checkNothingLeaked() throws Exception {
        for (LineSocketClient c : clients) {
            c.close();
        }
        Teardown.closeAll(servers, scheduler);
    }

    private FlowServer server(int maxPinnedThreads, TransportConfig config) throws Exception {
        scheduler = FlowScheduler.builder().workers(1).maxPinnedThreads(maxPinnedThreads).name("pinned-sessions").build();
        FlowServer s = FlowServer.builder().scheduler(scheduler).config(config).onFailure((t, e) -> failures.add(e))
                .handler(LENIENT, HANDLER).start(ANY_LOOPBACK_PORT);
        servers.add(s);
        return s;
    }

    private LineSocketClient client(FlowServer server) throws Exception {
        LineSocketClient c = new LineSocketClient(server.localAddress());
        clients.add(c);
        return c;
    }

    /** Waits until {@code n} sessions' flows run, each blocked in its pinned read. */
    private void untilRunning(int n) {
        Conditions.await(n + " flows blocked in their pinned reads", () -> scheduler.stats().running() == n,
                () -> scheduler.stats().toString());
    }

    @Test
    void sessionsPinnedInTheirReadsLeaveTheWorkerToAnotherSession() throws Exception {
        FlowServer server = server(16, TransportConfig.DEFAULT);
        List<LineSocketClient> idle = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            idle.add(client(server));
        }
        untilRunning(10);
        LineSocketClient active = client(server);
        assertEquals("hello", active.call("hello"));
        for (int i = 0; i < idle.size(); i++) {
            assertEquals("line " + i, idle.get(i).call("line " + i));
        }
        assertTrue(scheduler.stats().pinnedHandOffs() >= 10, scheduler.stats().toString());
        assertEquals(List.of(), List.copyOf(failures));
    }

    @Test
    void beyondMaxPinnedThreadsAPinnedReadHoldsTheWorkerUntilItTimesOut() throws Exception {
        // Long enough for the checks below to run while the three reads still wait, on a loaded machine too.
        TransportConfig config = TransportConfig.builder().readTimeout(Duration.ofSeconds(3)).build();
        FlowServer server = server(2, config);
        for (int i = 0; i < 3; i++) {
            client(server);
        }
        untilRunning(3);
        // Two reads handed their worker's place on, to two threads; the third holds it.
        assertEquals(3, schedulerThreads(), "threads: the worker and maxPinnedThreads more");
        LineSocketClient late = client(server);
        late.socket.setSoTimeout(20_000);
        late.send("late");
        Conditions.await("the fourth session's flow to wait for a worker", () -> scheduler.stats().queued() == 1,
                () -> scheduler.stats().toString());
        assertEquals(3, scheduler.stats().running(), scheduler.stats().toString());
        assertEquals("late", late.in.readLine());
        Conditions.await("the pinned reads to have timed out", () -> server.stats().timedOut() >= 3,
                () -> server.stats().toString());
        assertEquals(List.of(), List.copyOf(failures));
    }

    /** This test's scheduler's worker threads alive: its workers and the threads that took their place. */
    private static int schedulerThreads() {
        int n = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("pinned-sessions-worker-") && t.isAlive()) {
                n++;
            }
        }
        return n;
    }
}
