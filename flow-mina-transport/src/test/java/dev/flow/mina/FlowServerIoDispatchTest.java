package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.SuspendPolicy;
import dev.flow.Transport;
import dev.flow.TransportConfig;
import dev.flow.UnsuspendableFrameException;
import dev.flow.loader.ContinuationClassLoader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Dispatch#IO_THREADS}: session flows woken by their input resume on the I/O processor thread
 * that read it, and move to workers for sleeps and futures completed elsewhere.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FlowServerIoDispatchTest {

    private static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress(Pairs.LOOPBACK, 0);
    private static final ContinuationClassLoader LENIENT = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(false).build();

    private final FlowScheduler scheduler = FlowScheduler.builder()
            .workers(1).policy(SuspendPolicy.immediately()).name("io-dispatch-test").build();
    private final FlowConnector connector = FlowConnector.builder().ioProcessors(1).build();
    private final List<FlowServer> servers = new ArrayList<>();
    private final List<Socket> sockets = new ArrayList<>();
    private final Queue<Throwable> failures = new ConcurrentLinkedQueue<>();

    @AfterEach
    void checkNothingLeaked() throws Exception {
        for (Socket s : sockets) {
            s.close();
        }
        Teardown.closeAll(connector, servers, scheduler);
        FlowStats st = scheduler.stats();
        assertEquals(0, st.active() + st.running() + st.suspended() + st.queued(), st.toString());
        Conditions.await("no worker, carrier or MINA thread of this test left", () -> leftoverThreads().isEmpty(),
                () -> leftoverThreads().toString());
    }

    private static List<String> leftoverThreads() {
        List<String> names = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            String n = t.getName();
            if (t.isAlive() && (n.startsWith("io-dispatch-test") || n.contains("NioProcessor")
                    || n.startsWith("NioSocket") || n.startsWith("flow-server-") || n.startsWith("flow-connector"))) {
                names.add(n);
            }
        }
        return names;
    }

    private FlowServer server(String handler, Object... args) throws Exception {
        FlowServer s = FlowServer.builder().scheduler(scheduler).dispatch(Dispatch.IO_THREADS).ioProcessors(1)
                .onFailure((t, e) -> failures.add(e))
                .handler(LENIENT, handler, args).start(ANY_LOOPBACK_PORT);
        servers.add(s);
        return s;
    }

    /** A plain socket client of {@code server}, closed after the test. */
    private LineSocketClient client(FlowServer server) throws Exception {
        LineSocketClient c = new LineSocketClient(server.localAddress());
        sockets.add(c.socket);
        return c;
    }

    private void awaitSuspended(int n) {
        Conditions.await(n + " flows to suspend", () -> scheduler.stats().suspended() == n,
                () -> scheduler.stats().toString());
    }

    /**
     * Waits for {@code n} flows to suspend with their wake-ups registered on their sessions' input: a flow
     * is counted suspended a moment before, and input arriving in between wakes it on the worker that
     * registers it instead of on the I/O thread that reads it.
     */
    private void awaitWaitingForInput(FlowServer server, int n) {
        Conditions.await(n + " flows to wait for input", () -> scheduler.stats().suspended() == n
                && server.sessionsAwaitingInput() == n,
                () -> scheduler.stats() + ", " + server.sessionsAwaitingInput() + " awaiting input");
    }

    private static String threadOf(String reply) {
        return reply.substring(reply.indexOf(" on ") + 4);
    }

    @Test
    void manySessionsAreServedOnTheirOneIoThread() throws Exception {
        FlowServer server = server("flowtest.mina.ThreadEcho", new CompletableFuture<String>());
        List<LineSocketClient> clients = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            LineSocketClient c = client(server);
            assertTrue(c.call("hello " + i).startsWith("hello " + i + " on "));
            clients.add(c);
        }
        awaitWaitingForInput(server, 50);
        for (int i = 0; i < 50; i++) {
            clients.get(i).send("again " + i);
        }
        Set<String> threads = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            String reply = clients.get(i).in.readLine();
            assertTrue(reply.startsWith("again " + i + " on "), reply);
            threads.add(threadOf(reply));
        }
        assertEquals(1, threads.size(), "every session resumed on the one I/O thread: " + threads);
        String io = threads.iterator().next();
        assertTrue(io.contains("NioProcessor"), "resumed on an I/O processor, not a worker: " + io);
        assertFalse(scheduler.isWorker(findThread(io)));
        assertEquals(List.of(), List.copyOf(failures));
    }

    /**
     * Asks {@code c}'s handler to sleep 20 ms; returns its answer. A sleep already over when its wake-up is
     * registered (the I/O thread stalled 20 ms in between, which a loaded machine can do) goes on on that
     * thread: then it asks again, for 10 s at most.
     */
    private static String sleepAwayFromTheIoThread(LineSocketClient c) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String slept;
        do {
            slept = c.call("sleep");
        } while (slept != null && threadOf(slept).contains("NioProcessor") && System.nanoTime() - deadline < 0);
        return slept;
    }

    private static Thread findThread(String name) {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals(name)) {
                return t;
            }
        }
        throw new AssertionError("no thread named " + name);
    }

    @Test
    void aFlowThatSleepsOrAwaitsAFutureResumesOnAWorkerAndKeepsItsSession() throws Exception {
        CompletableFuture<String> later = new CompletableFuture<>();
        FlowServer server = server("flowtest.mina.ThreadEcho", later);
        LineSocketClient c = client(server);
        c.call("first");
        awaitWaitingForInput(server, 1);
        assertTrue(threadOf(c.call("input")).contains("NioProcessor"));
        awaitSuspended(1);
        String slept = sleepAwayFromTheIoThread(c);
        assertTrue(threadOf(slept).startsWith("io-dispatch-test-worker"), "a sleep resumes on a worker: " + slept);
        awaitSuspended(1);
        long resumed = scheduler.stats().resumed();
        c.send("future");
        // Counted suspended before its wake-up is registered on the future: completed in between, the
        // I/O thread registering it would run it; so also wait for the registration.
        Conditions.await("the flow to suspend on the future", () -> scheduler.stats().resumed() > resumed
                && scheduler.stats().suspended() == 1 && later.getNumberOfDependents() > 0,
                () -> scheduler.stats().toString());
        later.complete("completed elsewhere");
        String joined = c.in.readLine();
        assertTrue(joined.startsWith("completed elsewhere on io-dispatch-test-worker"), joined);
        awaitWaitingForInput(server, 1);
        assertTrue(threadOf(c.call("back")).contains("NioProcessor"), "input resumes it on the I/O thread again");
        c.socket.shutdownOutput();
        assertNull(c.in.readLine());
        assertEquals(List.of(), List.copyOf(failures));
    }

    @Test
    void aWaitThatCannotSuspendOnAnIoThreadFailsNamingItsSiteAndTheFix() throws Exception {
        CompletableFuture<String> never = new CompletableFuture<>();
        try {
            pinnedWaitsFail(server("flowtest.mina.PinnedOnCarrier", never), never);
        } finally {
            // Without the check, the pinned waits would block their threads for ever.
            never.complete("released");
        }
    }

    private void pinnedWaitsFail(FlowServer server, CompletableFuture<String> never) throws Exception {
        LineSocketClient c = client(server);
        awaitWaitingForInput(server, 1);
        LineSocketClient other = client(server);
        c.send("go");
        Conditions.await("the pinned wait to fail", () -> !failures.isEmpty(), failures::toString);
        Throwable e = failures.peek();
        assertInstanceOf(UnsuspendableFrameException.class, e);
        assertTrue(e.getMessage().contains("flowtest.mina.PinnedOnCarrier.call"), e.getMessage());
        assertTrue(e.getMessage().contains("use the WORKERS dispatch or make the call suspend"), e.getMessage());
        assertNull(c.in.readLine(), "the failed session is closed");
        awaitWaitingForInput(server, 1);
        other.send("the I/O thread still serves the other sessions");
        Conditions.await("the other session's pinned wait to fail too", () -> failures.size() == 2, failures::toString);
        assertNull(other.in.readLine());
        assertFalse(never.isDone());
    }

    /** {@code n} clients of {@code server} whose session flows have served a line and suspended. */
    private List<LineSocketClient> suspendedSessions(FlowServer server, int n) throws Exception {
        List<LineSocketClient> clients = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            LineSocketClient c = client(server);
            c.call("x");
            clients.add(c);
        }
        awaitSuspended(n);
        return clients;
    }

    @Test
    void closingTheServerEndsEveryFlowCleanly() throws Exception {
        FlowServer server = server("flowtest.mina.ThreadEcho", new CompletableFuture<String>());
        List<LineSocketClient> clients = suspendedSessions(server, 20);
        long failedBefore = scheduler.stats().failed();
        server.close();
        Conditions.await("the scheduler to be idle", () -> scheduler.stats().isIdle(), () -> scheduler.stats().toString());
        assertEquals(20, scheduler.stats().failed() - failedBefore, "each flow failed at its read");
        for (LineSocketClient c : clients) {
            assertNull(c.in.readLine());
        }
    }

    @Test
    void closingTheSchedulerFailsFlowsSuspendedOnTheIoDispatch() throws Exception {
        FlowServer server = server("flowtest.mina.ThreadEcho", new CompletableFuture<String>());
        List<LineSocketClient> clients = suspendedSessions(server, 20);
        scheduler.close();
        assertTrue(scheduler.awaitTermination(Duration.ofSeconds(5)));
        FlowStats st = scheduler.stats();
        assertEquals(0, st.active() + st.running() + st.suspended() + st.queued(), st.toString());
        for (LineSocketClient c : clients) {
            assertNull(c.in.readLine(), "the session of a failed flow is closed");
        }
    }

    @Test
    void aFlowRunningOnAnIoThreadIsDumpedAndCanBeCancelled() throws Exception {
        FlowConnector io = FlowConnector.builder().ioProcessors(1).dispatch(Dispatch.IO_THREADS, scheduler).build();
        try (ServerSocket listener = new ServerSocket(0, 4, Pairs.LOOPBACK)) {
            listener.setSoTimeout(5000);
            Transport t = io.connect(new InetSocketAddress(Pairs.LOOPBACK, listener.getLocalPort()));
            Socket peer = listener.accept();
            sockets.add(peer);
            CountDownLatch entered = new CountDownLatch(1);
            AtomicBoolean release = new AtomicBoolean();
            Callable<String> task = LENIENT.newInstance(Callable.class, "flowtest.mina.SpinOnCarrier", t, entered, release);
            FlowHandle<String> h = scheduler.submit(task, "spinner");
            MinaTransport waiting = (MinaTransport) t;
            Conditions.await("the flow to wait for input", () -> scheduler.stats().suspended() == 1
                    && waiting.awaitsInput(), () -> scheduler.stats() + ", " + waiting.state());
            peer.getOutputStream().write("a\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(entered.await(5, TimeUnit.SECONDS));
            String dump = scheduler.dump();
            assertTrue(dump.contains("spinner") && dump.contains("NioProcessor"), dump);
            assertEquals(1, scheduler.stats().running());
            assertTrue(h.cancel());
            release.set(true);
            Conditions.await("the cancelled flow to end", h::isDone);
            assertTrue(h.isCancelled());
            assertThrows(CancellationException.class, h::join);
        } finally {
            io.close();
        }
    }

    @Test
    void aFlowOnAnIoThreadConnectsToAnotherServerAndTalksToBoth() throws Exception {
        FlowServer backend = server("flowtest.mina.ThreadEcho", new CompletableFuture<String>());
        FlowServer proxy = server("flowtest.mina.Proxy", connector.connector(backend.localAddress()));
        List<LineSocketClient> clients = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            clients.add(client(proxy));
        }
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < clients.size(); i++) {
                clients.get(i).send(round + "/" + i);
            }
            for (int i = 0; i < clients.size(); i++) {
                String reply = clients.get(i).in.readLine();
                assertTrue(reply != null && reply.startsWith("proxied " + round + "/" + i + " on "), reply);
            }
        }
        Conditions.await("every backend session to end", () -> backend.stats().completed() == 30,
                () -> backend.stats().toString());
        awaitSuspended(10);
        assertEquals(10, proxy.openSessions());
        // A session is counted completed when its handler ends, and leaves openSessions() once MINA has
        // closed it, a moment later on its I/O thread.
        Conditions.await("every backend session to close", () -> backend.openSessions() == 0,
                () -> backend.openSessions() + " open");
        assertEquals(List.of(), List.copyOf(failures));
    }

    @Test
    void syncModeRefusesTheIoThreadsDispatch() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> FlowServer.builder()
                .threadPerSession().dispatch(Dispatch.IO_THREADS)
                .handler(LENIENT, "flowtest.mina.ThreadEcho", new CompletableFuture<String>())
                .start(ANY_LOOPBACK_PORT));
        assertEquals("dispatch: IO_THREADS (expected: WORKERS with threadPerSession(), whose handlers run on threads "
                + "of their own; IO_THREADS needs scheduler(...))", e.getMessage());
    }

    @Test
    void aConnectorRefusesTheIoThreadsDispatchWithoutAScheduler() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FlowConnector.builder().dispatch(Dispatch.IO_THREADS, null));
        assertTrue(e.getMessage().startsWith("scheduler: null"), e.getMessage());
    }
}
