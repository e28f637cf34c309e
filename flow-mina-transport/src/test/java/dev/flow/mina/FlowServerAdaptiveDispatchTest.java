package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.SuspendPolicy;
import dev.flow.loader.ContinuationClassLoader;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.mina.util.ExceptionMonitor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Dispatch#ADAPTIVE}, a server's default: a session flow whose runs are short resumes on the I/O
 * thread that read its input; one whose last runs were long, and a lenient one that blocked in a pinned
 * wait, resume on workers. A pinned wait on the I/O thread hands the thread's loop to another thread.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FlowServerAdaptiveDispatchTest {

    private static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress(Pairs.LOOPBACK, 0);
    private static final ContinuationClassLoader STRICT = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(true).build();
    private static final ContinuationClassLoader LENIENT = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(false).build();
    /** Lines a session is sent after its pinned wait, each of which must be answered on a worker. */
    private static final int MAX_LINES = 200;
    /**
     * How long a session is sent lines at most before one must be answered on its I/O thread. Runs longer
     * than a millisecond keep a session on workers, and on a loaded machine (CI runs two builds on two
     * cores) a preempted thread or a collection makes many runs that long: the bound is a time, not a count.
     */
    private static final long ON_THE_IO_THREAD_WITHIN_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final FlowScheduler scheduler = FlowScheduler.builder()
            .workers(1).policy(SuspendPolicy.immediately()).name("adaptive-test").build();
    private final List<FlowServer> servers = new ArrayList<>();
    private final List<Socket> sockets = new ArrayList<>();
    private final Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
    /** What MINA's I/O loops caught (each costs the loop a second's sleep); none is expected. */
    private final Queue<Throwable> loopExceptions = new ConcurrentLinkedQueue<>();
    private ExceptionMonitor minaMonitor;

    @BeforeEach
    void recordMinaLoopExceptions() {
        minaMonitor = ExceptionMonitor.getInstance();
        ExceptionMonitor.setInstance(new ExceptionMonitor() {
            @Override
            public void exceptionCaught(Throwable cause) {
                loopExceptions.add(cause);
            }
        });
    }

    @AfterEach
    void checkNothingLeaked() throws Exception {
        try {
            for (Socket s : sockets) {
                s.close();
            }
            Teardown.closeAll(servers, scheduler);
        } finally {
            ExceptionMonitor.setInstance(minaMonitor);
        }
        FlowStats st = scheduler.stats();
        assertEquals(0, st.active() + st.running() + st.suspended() + st.queued(), st.toString());
        assertEquals(List.of(), List.copyOf(loopExceptions), "exceptions MINA's I/O loops caught");
    }

    /** A server with the default dispatch, one I/O thread, running {@code handler} loaded by {@code loader}. */
    private FlowServer server(ContinuationClassLoader loader, String handler, Object... args) throws Exception {
        FlowServer s = FlowServer.builder().scheduler(scheduler).ioProcessors(1)
                .onFailure((t, e) -> failures.add(e))
                .handler(loader, handler, args).start(ANY_LOOPBACK_PORT);
        servers.add(s);
        return s;
    }

    /** A plain socket client of {@code server}, closed after the test. */
    private LineSocketClient client(FlowServer server) throws Exception {
        LineSocketClient c = new LineSocketClient(server.localAddress());
        sockets.add(c.socket);
        return c;
    }

    /** Sends {@code line} through {@code c}; returns the name of the thread that answered it. */
    private static String threadAnswering(LineSocketClient c, String line) throws Exception {
        String reply = c.call(line);
        assertTrue(reply != null && reply.startsWith(line + " on "), "reply to " + line + ": " + reply);
        return reply.substring(line.length() + 4);
    }

    /** How many lines a session was sent until one was answered on an I/O thread, and that thread. */
    private record Answered(int lines, String ioThread) {
    }

    /** Sends lines through {@code c} until one is answered on an I/O thread (for 10 s at most). */
    private Answered untilAnsweredOnTheIoThread(LineSocketClient c) throws Exception {
        long start = System.nanoTime();
        for (int i = 1; ; i++) {
            String thread = threadAnswering(c, "line " + i);
            if (isIoThread(thread)) {
                return new Answered(i, thread);
            }
            long nanos = System.nanoTime() - start;
            if (nanos > ON_THE_IO_THREAD_WITHIN_NANOS) {
                throw new AssertionError(i + " lines answered in " + TimeUnit.NANOSECONDS.toMillis(nanos)
                        + " ms, none on the I/O thread");
            }
        }
    }

    private boolean isIoThread(String name) {
        return name.contains("NioProcessor");
    }

    private boolean isWorker(String name) {
        return name.startsWith("adaptive-test-worker");
    }

    /** Strict or lenient: a lenient handler's pinned wait there would hand the I/O thread's loop off (below). */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aSessionWhoseRunsAreShortIsServedOnItsIoThreadByDefault(boolean strict) throws Exception {
        LineSocketClient c = client(server(strict ? STRICT : LENIENT, "flowtest.mina.ThreadEcho", new CompletableFuture<String>()));
        String first = threadAnswering(c, "first");
        assertTrue(isWorker(first), "a session's first runs are on workers: " + first);
        untilAnsweredOnTheIoThread(c);
        assertEquals(List.of(), List.copyOf(failures));
    }

    /**
     * The I/O threads run the flows with this dispatch, so there is one per processor: with MINA's default,
     * one more, one of them always waited for a core while it held its sessions. MINA hands sessions to its
     * I/O threads in turn, so twice as many sessions as MINA's default reach every one of them.
     */
    @Test
    void byDefaultAServerHasOneIoThreadPerProcessor() throws Exception {
        FlowServer s = FlowServer.builder().scheduler(scheduler).onFailure((t, e) -> failures.add(e))
                .handler(STRICT, "flowtest.mina.ThreadEcho", new CompletableFuture<String>()).start(ANY_LOOPBACK_PORT);
        servers.add(s);
        int processors = Runtime.getRuntime().availableProcessors();
        Set<String> ioThreads = new TreeSet<>();
        for (int i = 0; i < 2 * (processors + 1); i++) {
            ioThreads.add(untilAnsweredOnTheIoThread(client(s)).ioThread());
        }
        assertEquals(processors, ioThreads.size(), "I/O threads that answered: " + ioThreads);
        assertEquals(List.of(), List.copyOf(failures));
    }

    /**
     * A lenient flow on its I/O thread that blocks in a pinned wait hands the thread's loop to another
     * thread: the other sessions of that I/O thread are still served, the pinned wait gets its own input
     * (read by the other thread), and the blocked thread takes its loop back once the flow suspends.
     */
    @Test
    void aLenientSessionsPinnedWaitOnItsIoThreadHandsTheThreadsOtherSessionsToAnotherThread() throws Exception {
        PinnedOnIoThread p = pinOnTheIoThread(server(LENIENT, "flowtest.mina.PinsOnRequest"));
        LineSocketClient pinned = p.pinned();
        LineSocketClient other = p.other();
        String ioThread = p.ioThread();
        for (int i = 0; i < 20; i++) {
            String thread = threadAnswering(other, "while pinned " + i);
            assertTrue(!thread.equals(ioThread), "answered on the blocked thread: " + thread);
        }
        String standIn = untilAnsweredOnTheIoThread(other).ioThread();
        assertTrue(standIn.startsWith(ioThread + "-standin-"), "the I/O thread running the loop meanwhile: " + standIn);
        pinned.send("its own input");
        assertEquals("pinned its own input on " + ioThread, pinned.in.readLine());
        assertEquals(List.of(), List.copyOf(failures));
        long start = System.nanoTime();
        for (int i = 1; !threadAnswering(other, "after " + i).equals(ioThread); i++) {
            assertTrue(System.nanoTime() - start < ON_THE_IO_THREAD_WITHIN_NANOS,
                    "the blocked thread did not run its loop again (" + i + " lines)");
        }
    }

    /** Two sessions of one I/O thread, the first's flow blocked in a pinned wait there. */
    private record PinnedOnIoThread(LineSocketClient pinned, LineSocketClient other, String ioThread) {
    }

    /**
     * Connects two clients to {@code server} (a {@code PinsOnRequest} server), brings both sessions to their
     * I/O thread, then the first one's flow into a pinned wait there. A run longer than a millisecond (a
     * loaded machine) may send the flow back to a worker between its last answer on the I/O thread and the
     * request to pin: it then pins on the worker; that pair is released and closed, and two new sessions
     * try again (for 10 s at most).
     */
    private PinnedOnIoThread pinOnTheIoThread(FlowServer server) throws Exception {
        long start = System.nanoTime();
        for (int attempt = 1; ; attempt++) {
            LineSocketClient pinned = client(server);
            LineSocketClient other = client(server);
            String ioThread = untilAnsweredOnTheIoThread(pinned).ioThread();
            untilAnsweredOnTheIoThread(other);
            FlowStats before = scheduler.stats();
            pinned.send("pin");
            Conditions.await("the flow to block in its pinned wait", () -> {
                FlowStats now = scheduler.stats();
                return now.ioLoopHandOffs() > before.ioLoopHandOffs() || now.pinnedHandOffs() > before.pinnedHandOffs();
            }, () -> scheduler.stats().toString());
            if (scheduler.stats().ioLoopHandOffs() > before.ioLoopHandOffs()) {
                return new PinnedOnIoThread(pinned, other, ioThread);
            }
            String released = pinned.call("released");
            assertTrue(released != null && released.startsWith("pinned released on ") && !isIoThread(released),
                    "a flow that pinned off its I/O thread: " + released);
            pinned.socket.close();
            other.socket.close();
            assertTrue(System.nanoTime() - start < ON_THE_IO_THREAD_WITHIN_NANOS,
                    attempt + " sessions pinned on a worker, none on the I/O thread");
        }
    }

    @Test
    void aLenientSessionThatPinnedOnItsIoThreadIsResumedOnWorkersFromThenOn() throws Exception {
        LineSocketClient c = pinOnTheIoThread(server(LENIENT, "flowtest.mina.PinsOnRequest")).pinned();
        assertTrue(c.call("x").startsWith("pinned x on "), "the pinned read's answer");
        // The run goes on on the blocked thread until the flow suspends: only the wake-ups after count.
        Conditions.await("both sessions' flows to suspend", () -> scheduler.stats().suspended() == 2,
                () -> scheduler.stats().toString());
        for (int i = 0; i < MAX_LINES; i++) {
            String thread = threadAnswering(c, "after " + i);
            assertTrue(isWorker(thread), "line " + i + " after the pinned wait answered on " + thread);
        }
        assertEquals(List.of(), List.copyOf(failures));
    }

    @Test
    void aServerStopsWhileALenientFlowIsBlockedInAPinnedWaitOnItsIoThread() throws Exception {
        FlowServer server = server(LENIENT, "flowtest.mina.PinsOnRequest");
        PinnedOnIoThread p = pinOnTheIoThread(server);
        LineSocketClient pinned = p.pinned();
        LineSocketClient other = p.other();
        untilAnsweredOnTheIoThread(other);
        long start = System.nanoTime();
        server.close();
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(millis < 5_000, "stopped in " + millis + " ms");
        assertNull(pinned.in.readLine(), "the pinned session is closed");
        assertNull(other.in.readLine(), "the other session is closed");
    }

    @Test
    void aLenientSessionsPinnedWaitBlocksAWorkerInsteadOfBeingRefused() throws Exception {
        CompletableFuture<String> later = new CompletableFuture<>();
        LineSocketClient c = client(server(LENIENT, "flowtest.mina.PinnedOnCarrier", later));
        c.send("go");
        Conditions.await("the flow to block in its pinned wait", () -> scheduler.stats().running() == 1,
                () -> scheduler.stats().toString());
        later.complete("released");
        assertEquals("unreachable released", c.in.readLine());
        assertNull(c.in.readLine());
        assertEquals(List.of(), List.copyOf(failures));
    }

    @Test
    void twoRunsLongerThanAMillisecondSendTheSessionBackToWorkersUntilItsRunsAreShortAgain() throws Exception {
        FlowServer server = server(STRICT, "flowtest.mina.ThreadEcho", new CompletableFuture<String>());
        LineSocketClient c = client(server);
        untilAnsweredOnTheIoThread(c);
        threadAnswering(c, "spin");
        threadAnswering(c, "spin");
        String after = threadAnswering(c, "after");
        assertTrue(isWorker(after), "the run after a second long one is on a worker: " + after);
        int lines = untilAnsweredOnTheIoThread(c).lines();
        assertTrue(lines >= 4, "back on the I/O thread only after four short runs in a row: " + lines + " lines");
        // Another session of the same server reaches its I/O thread as any does (the call fails otherwise).
        untilAnsweredOnTheIoThread(client(server));
        assertEquals(List.of(), List.copyOf(failures));
    }

    @Test
    void aHandlerOnItsIoThreadThatClosesItsServerDoesNotWaitForItself() throws Exception {
        AtomicReference<AutoCloseable> self = new AtomicReference<>();
        FlowServer server = server(STRICT, "flowtest.mina.StoppingEcho", self);
        self.set(server);
        LineSocketClient c = client(server);
        untilAnsweredOnTheIoThread(c);
        long start = System.nanoTime();
        c.send("stop");
        String reply = c.in.readLine();
        assertTrue(reply == null || reply.equals("stopped"), "after stop: " + reply);
        Conditions.await("the session to end", () -> server.openSessions() == 0, () -> server.stats().toString());
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(millis < 10_000, "stopped in " + millis + " ms, not after close's own time-outs");
        assertTrue(server.isClosed());
        // The stop runs on a thread of its own: the session may end before it unbinds.
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        Conditions.await("the server to stop accepting", () -> refuses(port), () -> "port " + port + " still accepts");
    }

    /** Whether a connection to {@code port} on the loopback address is refused. */
    private static boolean refuses(int port) {
        try (Socket s = new Socket(Pairs.LOOPBACK, port)) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    @Test
    void syncModeTakesTheAdaptiveDispatchAsWorkers() throws Exception {
        FlowServer server = FlowServer.builder().threadPerSession().dispatch(Dispatch.ADAPTIVE)
                .handler(LENIENT, "flowtest.mina.ThreadEcho", new CompletableFuture<String>()).start(ANY_LOOPBACK_PORT);
        servers.add(server);
        String thread = threadAnswering(client(server), "hello");
        assertFalse(isIoThread(thread) || isWorker(thread), "answered on the session's own thread: " + thread);
    }

    @Test
    void aConnectorRefusesTheAdaptiveDispatchWithoutAScheduler() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FlowConnector.builder().dispatch(Dispatch.ADAPTIVE, null));
        assertEquals("scheduler: null (expected: the scheduler whose flows the I/O threads run, with Dispatch.ADAPTIVE)",
                e.getMessage());
    }
}
