package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.loader.ContinuationClassLoader;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.apache.mina.core.future.DefaultConnectFuture;
import org.apache.mina.transport.vmpipe.VmPipeAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Continuation mode: the plain blocking code of {@code flowtest.mina} loaded through a strict {@link
 * ContinuationClassLoader} (a wait that cannot suspend throws instead of blocking) and run on ONE
 * worker. Client and server flows share that worker, which only works if every read, write, connect
 * and MINA future wait suspends the flow and a MINA event resumes it.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ContinuationModeTest {

    private static final ContinuationClassLoader LOADER = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(true).build();

    private final FlowScheduler scheduler = FlowScheduler.builder()
            .workers(1).policy(SuspendPolicy.immediately()).name("continuation-test").build();
    private final FlowConnector connector = FlowConnector.builder().ioProcessors(1).build();
    private final Queue<String> outcomes = new ConcurrentLinkedQueue<>();
    private final List<FlowServer> servers = new ArrayList<>();

    @AfterEach
    void checkNothingLeaked() throws Exception {
        Teardown.closeAll(connector, servers, scheduler);
        Conditions.await("no worker, timer or MINA thread of this test left", () -> leftoverThreads().isEmpty(),
                () -> leftoverThreads().toString());
    }

    private static List<String> leftoverThreads() {
        List<String> names = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            String n = t.getName();
            if (t.isAlive() && (n.startsWith("continuation-test") || n.contains("NioProcessor")
                    || n.startsWith("NioSocket") || n.startsWith("flow-server-"))) {
                names.add(n);
            }
        }
        return names;
    }

    @Test
    void aTooLongLineFailsThatSessionFlowOnlyAndClosesItsSession() throws Exception {
        FlowServer server = echoServer(new InetSocketAddress(Pairs.LOOPBACK, 0),
                dev.flow.TransportConfig.builder().maxLineLength(64).build());
        dev.flow.Transport good = connector.connect(server.localAddress());
        dev.flow.Transport bad = connector.connect(server.localAddress());
        bad.writeLine("x".repeat(200));
        assertEquals(null, bad.readLine(), "the server closes the offending session");
        good.writeLine("still here");
        assertEquals("still here", good.readLine());
        Conditions.await("the failing flow to end", () -> outcomes.contains("LineTooLongException"), outcomes::toString);
        good.writeLine("quit");
        assertEquals("bye", good.readLine());
        good.close();
        bad.close();
        Conditions.await("the scheduler to be idle", () -> scheduler.stats().isIdle(), () -> scheduler.stats().toString());
        assertEquals(1, scheduler.stats().failed());
        assertEquals(1, scheduler.stats().completed());
    }

    @Test
    void aPeerResetMidReadFailsTheSuspendedReadWithAnIOException() throws Exception {
        FlowServer server = echoServer(new InetSocketAddress(Pairs.LOOPBACK, 0));
        InetSocketAddress address = (InetSocketAddress) server.localAddress();
        try (java.net.Socket raw = new java.net.Socket(address.getAddress(), address.getPort())) {
            raw.getOutputStream().write("hello\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            java.io.BufferedReader in = new java.io.BufferedReader(
                    new java.io.InputStreamReader(raw.getInputStream(), java.nio.charset.StandardCharsets.US_ASCII));
            assertEquals("hello", in.readLine());
            Conditions.await("the session flow to suspend in readLine", () -> scheduler.stats().suspended() == 1,
                    () -> scheduler.stats().toString());
            raw.setSoLinger(true, 0);
        }
        Conditions.await("the flow to fail", () -> scheduler.stats().failed() == 1, () -> scheduler.stats().toString());
        assertEquals(List.of("IOException"), List.copyOf(outcomes));
        Conditions.await("the session to close", () -> server.openSessions() == 0);
        Conditions.await("the reset to be counted as the peer's doing", () -> server.stats().closedByPeer() == 1,
                () -> server.stats().toString());
        assertEquals(0, server.stats().failed(), server.stats().toString());
    }

    @Test
    void aReadTimeoutRaisesSocketTimeoutExceptionInTheSuspendedFlow() throws Exception {
        FlowServer server = echoServer(new InetSocketAddress(Pairs.LOOPBACK, 0),
                dev.flow.TransportConfig.builder().readTimeout(Duration.ofMillis(100)).build());
        dev.flow.Transport silent = connector.connect(server.localAddress());
        Conditions.await("the flow to time out", () -> scheduler.stats().failed() == 1, () -> scheduler.stats().toString());
        assertEquals(List.of("SocketTimeoutException"), List.copyOf(outcomes));
        assertEquals(1, scheduler.stats().resumed(), "the timer resumed the suspended read once");
        assertEquals(null, silent.readLine(), "the server closed the session");
        Conditions.await("the session to end", () -> server.stats().timedOut() == 1, () -> server.stats().toString());
        assertEquals(0, server.stats().failed(), "a timeout is the limit at work, not a handler failure");
        silent.close();
    }

    private FlowServer echoServer(SocketAddress address) throws IOException {
        return echoServer(address, dev.flow.TransportConfig.DEFAULT);
    }

    private FlowServer echoServer(SocketAddress address, dev.flow.TransportConfig config) throws IOException {
        FlowServer s = FlowServer.builder().scheduler(scheduler).config(config)
                .handler(t -> LOADER.newInstance(Callable.class, "flowtest.mina.LineEcho", t, outcomes))
                .ioProcessors(1).start(address);
        servers.add(s);
        return s;
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "vm"})
    void clientAndServerFlowsShareOneWorker(String transport) throws Exception {
        FlowServer server = echoServer(transport.equals("tcp")
                ? new InetSocketAddress(Pairs.LOOPBACK, 0) : new VmPipeAddress(0));
        int clients = 20;
        int lines = 50;
        List<FlowHandle<Integer>> handles = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            @SuppressWarnings("unchecked")
            Callable<Integer> client = LOADER.newInstance(Callable.class, "flowtest.mina.LineClient",
                    connector.connector(server.localAddress()), lines, "client-" + i);
            handles.add(scheduler.submit(client));
        }
        for (FlowHandle<Integer> h : handles) {
            assertEquals(lines, h.get(Duration.ofSeconds(20)));
        }
        Conditions.await("the server sessions to close", () -> server.openSessions() == 0);
        Conditions.await("the scheduler to be idle", () -> scheduler.stats().isIdle(), () -> scheduler.stats().toString());
        assertEquals(2L * clients, scheduler.stats().completed());
        assertEquals(0, scheduler.stats().failed());
        assertTrue(scheduler.stats().resumed() >= clients * lines,
                "every echo needs the server flow to wait for input: " + scheduler.stats());
        assertEquals(Collections.nCopies(clients, "quit"), List.copyOf(outcomes));
    }

    @Test
    void aFlushTheSocketTakesAtOnceDoesNotSuspendTheFlow() throws Exception {
        FlowServer server = FlowServer.builder().scheduler(scheduler)
                .handler(t -> LOADER.newInstance(Callable.class, "flowtest.mina.FlushingEcho", t))
                .ioProcessors(1).start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        servers.add(server);
        int lines = 50;
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(server.localAddress(), 10_000);
            s.setSoTimeout(10_000);
            s.setTcpNoDelay(true);
            java.io.BufferedReader in = new java.io.BufferedReader(
                    new java.io.InputStreamReader(s.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
            java.io.OutputStream out = s.getOutputStream();
            for (int i = 0; i < lines; i++) {
                // One line at a time: the server flow waits for each, then writes and flushes its echo.
                out.write(("line " + i + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                out.flush();
                assertEquals("line " + i, in.readLine());
            }
        }
        Conditions.await("the server session to close", () -> server.openSessions() == 0);
        Conditions.await("the scheduler to be idle", () -> scheduler.stats().isIdle(), () -> scheduler.stats().toString());
        assertEquals(0, scheduler.stats().failed());
        // Each line costs the server flow one wait for its input, at most; a flush of a reply the socket
        // takes at once is not a wait (it was one per line when every write went through MINA's I/O thread).
        assertTrue(scheduler.stats().resumed() <= lines + 1,
                "at most one resumption per line (the read), none for the flush: " + scheduler.stats());
    }

    @Test
    void aLineWrittenThenReadFromAnInVmPeerThatAnswersAtOnceDoesNotSuspendTheFlow() throws Exception {
        // A hand-written MINA echo over VmPipe answers on the writing thread, so each echo is buffered
        // once the flow's line has gone out: the read that follows must not wait for it, even though the
        // flow's write was held back (write coalescing) until that read.
        org.apache.mina.transport.vmpipe.VmPipeAcceptor echo = new org.apache.mina.transport.vmpipe.VmPipeAcceptor();
        echo.getFilterChain().addLast("lines", new org.apache.mina.filter.codec.ProtocolCodecFilter(
                new org.apache.mina.filter.codec.textline.TextLineCodecFactory(java.nio.charset.StandardCharsets.UTF_8)));
        echo.setHandler(new org.apache.mina.core.service.IoHandlerAdapter() {
            @Override
            public void messageReceived(org.apache.mina.core.session.IoSession session, Object message) {
                if (message.equals("quit")) {
                    session.write("bye");
                    session.closeOnFlush();
                } else {
                    session.write(message);
                }
            }
        });
        VmPipeAddress address = new VmPipeAddress(VM_ECHO_PORT);
        echo.bind(address);
        try {
            int lines = 50;
            @SuppressWarnings("unchecked")
            Callable<Integer> client = LOADER.newInstance(Callable.class, "flowtest.mina.LineClient",
                    connector.connector(address), lines, "client");
            assertEquals(lines, scheduler.submit(client).get(Duration.ofSeconds(20)));
            Conditions.await("the scheduler to be idle", () -> scheduler.stats().isIdle(), () -> scheduler.stats().toString());
            assertTrue(scheduler.stats().resumed() <= 3,
                    "the connect and the end of the stream may wait, no echo: " + scheduler.stats());
        } finally {
            echo.unbind();
            echo.dispose(true);
        }
    }

    /** A VmPipe port no other test of this class binds. */
    private static final int VM_ECHO_PORT = 41_977;

    @Test
    void ioFutureAwaitSuspendsTheFlowUntilMinaCompletesTheFuture() throws Exception {
        DefaultConnectFuture future = new DefaultConnectFuture();
        @SuppressWarnings("unchecked")
        Callable<Boolean> waiter = LOADER.newInstance(Callable.class, "flowtest.mina.AwaitIoFuture", future, -1L);
        FlowHandle<Boolean> waiting = scheduler.submit(waiter);
        Conditions.await("the flow to suspend", () -> scheduler.stats().suspended() == 1, () -> scheduler.stats().toString());
        @SuppressWarnings("unchecked")
        Callable<String> quick = LOADER.newInstance(Callable.class, "flowtest.mina.Quick");
        assertEquals("quick", scheduler.submit(quick).get(Duration.ofSeconds(5)), "the only worker is free");
        assertFalse(waiting.isDone());

        future.setException(new IOException("refused"));
        assertTrue(waiting.get(Duration.ofSeconds(5)));
        assertEquals(1, scheduler.stats().resumed());
    }

    @Test
    void timedIoFutureAwaitSuspendsAndTimesOut() throws Exception {
        @SuppressWarnings("unchecked")
        Callable<Boolean> waiter = LOADER.newInstance(Callable.class, "flowtest.mina.AwaitIoFuture",
                new DefaultConnectFuture(), 50L);
        long t0 = System.nanoTime();
        FlowHandle<Boolean> waiting = scheduler.submit(waiter);
        Conditions.await("the flow to suspend", () -> scheduler.stats().suspended() == 1 || waiting.isDone(),
                () -> scheduler.stats().toString());
        assertFalse(waiting.get(Duration.ofSeconds(5)), "await(50) returns false when the future is not done");
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) >= 45);
        assertEquals(1, scheduler.stats().resumed(), "resumed by the timer, not by blocking the worker");
    }

    @Test
    void closingTheServerEndsSuspendedSessionFlowsWithAnIOException() throws Exception {
        FlowServer server = echoServer(new InetSocketAddress(Pairs.LOOPBACK, 0));
        List<dev.flow.Transport> clients = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            dev.flow.Transport t = connector.connect(server.localAddress());
            t.writeLine("ping");
            assertEquals("ping", t.readLine());
            clients.add(t);
        }
        Conditions.await("the session flows to suspend", () -> scheduler.stats().suspended() == 3,
                () -> scheduler.stats().toString());
        server.close();
        Conditions.await("the scheduler to be idle", () -> scheduler.stats().isIdle(), () -> scheduler.stats().toString());
        assertEquals(List.of("IOException", "IOException", "IOException"), List.copyOf(outcomes));
        assertEquals(3, scheduler.stats().failed());
        for (dev.flow.Transport t : clients) {
            t.close();
        }
    }

    @Test
    void stoppingTheServerWithAThousandSuspendedFlowsFailsEachWithAnIOException() throws Exception {
        FlowServer server = echoServer(new org.apache.mina.transport.vmpipe.VmPipeAddress(0));
        List<dev.flow.Transport> clients = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            clients.add(connector.connect(server.localAddress()));
        }
        Conditions.await("1000 session flows to suspend", () -> scheduler.stats().suspended() == 1000,
                () -> scheduler.stats().toString());
        long failedBefore = scheduler.stats().failed();
        server.close();
        Conditions.await("the scheduler to be idle", () -> scheduler.stats().isIdle(), () -> scheduler.stats().toString());
        assertEquals(1000, scheduler.stats().failed() - failedBefore);
        assertEquals(1000, outcomes.stream().filter("IOException"::equals).count());
        assertEquals(0, server.openSessions());
        for (dev.flow.Transport t : clients) {
            t.close();
        }
    }
}
