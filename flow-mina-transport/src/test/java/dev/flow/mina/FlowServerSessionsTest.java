package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.Transport;
import dev.flow.TransportConfig;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Sync mode with a thread per session, the session limit and the session counters. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FlowServerSessionsTest {

    private static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress(Pairs.LOOPBACK, 0);
    private static final String THREAD_PREFIX = "flow-server-";

    private final FlowConnector connector = FlowConnector.builder().ioProcessors(1)
            .config(TransportConfig.builder().readTimeout(Duration.ofSeconds(10)).build()).build();
    private final Queue<Throwable> reported = new ConcurrentLinkedQueue<>();
    private final List<FlowServer> servers = new ArrayList<>();
    private final List<FlowScheduler> schedulers = new ArrayList<>();

    /** Counts itself in, waits (20 s at most) until every expected session is in at the same time, says so. */
    public static final class Gate implements Callable<String> {
        private final Transport t;
        private final CountDownLatch allIn;

        public Gate(Transport t, CountDownLatch allIn) {
            this.t = t;
            this.allIn = allIn;
        }

        @Override
        public String call() throws IOException, InterruptedException {
            t.readLine();
            allIn.countDown();
            if (!allIn.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException(allIn.getCount() + " sessions still missing after 20 s");
            }
            t.writeLine("all in");
            return t.readLine();
        }
    }

    /** Echoes lines until the end of the stream; throws on "boom". */
    public static final class Echo implements Callable<String> {
        private final Transport t;

        public Echo(Transport t) {
            this.t = t;
        }

        @Override
        public String call() throws IOException {
            String line;
            while ((line = t.readLine()) != null) {
                if (line.equals("boom")) {
                    throw new IllegalStateException("boom requested");
                }
                t.writeLine(line);
            }
            return "eof";
        }
    }

    @AfterEach
    void checkNothingLeaked() throws Exception {
        connector.close();
        for (FlowServer s : servers) {
            s.close();
            assertEquals(0, s.openSessions());
            assertEquals(0, s.stats().running(), s.stats().toString());
        }
        for (FlowScheduler s : schedulers) {
            Conditions.await("the scheduler to be idle", () -> s.stats().isIdle(), () -> s.stats().toString());
            s.close();
            assertTrue(s.awaitTermination(Duration.ofSeconds(5)));
        }
        Conditions.await("no session thread left", () -> sessionThreads() == 0, () -> sessionThreads() + " left");
    }

    private static long sessionThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(THREAD_PREFIX) && t.getName().contains("-session-"))
                .count();
    }

    private FlowServer start(FlowServer.Builder b) throws IOException {
        FlowServer s = b.onFailure((t, e) -> reported.add(e)).ioProcessors(1).start(ANY_LOOPBACK_PORT);
        servers.add(s);
        return s;
    }

    @Test
    void threadPerSessionServesMoreSessionsAtOnceThanAnyFixedPoolAndReleasesTheThreads() throws Exception {
        int n = 64;
        CountDownLatch allIn = new CountDownLatch(n);
        FlowServer server = start(FlowServer.builder().threadPerSession().handler(Gate.class, allIn));
        assertEquals(0, sessionThreads(), "no thread is started up front");
        List<Transport> clients = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Transport t = connector.connect(server.localAddress());
            t.writeLine("hello");
            clients.add(t);
        }
        for (Transport t : clients) {
            assertEquals("all in", t.readLine());
        }
        assertEquals(n, server.stats().running());
        for (Transport t : clients) {
            t.writeLine("bye");
            assertNull(t.readLine());
            t.close();
        }
        Conditions.await("every session to complete", () -> server.stats().completed() == n, () -> server.stats().toString());
        Conditions.await("the session threads to end", () -> sessionThreads() == 0, () -> sessionThreads() + " left");
        assertTrue(reported.isEmpty(), reported::toString);
    }

    @Test
    void sessionsBeyondMaxSessionsAreRejectedAtOnceAndCounted() throws Exception {
        FlowServer server = start(FlowServer.builder().threadPerSession().maxSessions(2).handler(Echo.class));
        Transport a = connector.connect(server.localAddress());
        Transport b = connector.connect(server.localAddress());
        a.writeLine("a");
        b.writeLine("b");
        assertEquals("a", a.readLine());
        assertEquals("b", b.readLine());
        try (Transport c = connector.connect(server.localAddress())) {
            assertNull(c.readLine(), "the third session is closed at once");
        }
        assertEquals(1, server.stats().rejected());
        a.close();
        Conditions.await("a slot to free", () -> server.stats().running() == 1, () -> server.stats().toString());
        try (Transport d = connector.connect(server.localAddress())) {
            d.writeLine("d");
            assertEquals("d", d.readLine(), "a freed slot serves a new session");
        }
        b.close();
        Conditions.await("the sessions to end", () -> server.stats().completed() == 3, () -> server.stats().toString());
        assertEquals(4, server.stats().accepted());
    }

    @Test
    void sessionsBeyondMaxSessionsWaitInTheQueueWhenConfiguredSo() throws Exception {
        FlowScheduler scheduler = FlowScheduler.builder().workers(2).policy(SuspendPolicy.never()).name("sessions-test").build();
        schedulers.add(scheduler);
        FlowServer server = start(FlowServer.builder().scheduler(scheduler).maxSessions(1)
                .overflow(FlowServer.Overflow.QUEUE).handler(Echo.class));
        Transport first = connector.connect(server.localAddress());
        first.writeLine("1");
        assertEquals("1", first.readLine());
        Transport second = connector.connect(server.localAddress());
        second.writeLine("2");
        Conditions.await("the second session to queue", () -> server.stats().queued() == 1, () -> server.stats().toString());
        assertEquals(1, scheduler.stats().started(), "the queued session has no flow yet");
        first.close();
        assertEquals("2", second.readLine(), "the queued session is served once the first ends, input kept");
        second.close();
        Conditions.await("both to complete", () -> server.stats().completed() == 2, () -> server.stats().toString());
        assertEquals(0, server.stats().rejected());
    }

    @Test
    void aPeerResetCountsAsClosedByPeerAndAHandlerFailureAsFailed() throws Exception {
        FlowServer server = start(FlowServer.builder().threadPerSession().handler(Echo.class));
        InetSocketAddress address = (InetSocketAddress) server.localAddress();
        for (int i = 0; i < 3; i++) {
            try (Socket raw = new Socket(address.getAddress(), address.getPort())) {
                raw.getOutputStream().write("hello\n".getBytes(StandardCharsets.US_ASCII));
                BufferedReader in = new BufferedReader(new InputStreamReader(raw.getInputStream(), StandardCharsets.US_ASCII));
                assertEquals("hello", in.readLine());
                raw.setSoLinger(true, 0);
            }
        }
        try (Transport t = connector.connect(server.localAddress())) {
            t.writeLine("boom");
            assertNull(t.readLine());
        }
        Conditions.await("all four sessions to end", () -> server.stats().closedByPeer() + server.stats().failed()
                + server.stats().completed() == 4, () -> server.stats().toString());
        assertEquals(1, server.stats().failed(), server.stats().toString());
        assertEquals(0, server.stats().completed(), server.stats().toString());
        assertEquals(3, server.stats().closedByPeer(), server.stats().toString());
        assertEquals(1, reported.size());
        assertEquals("boom requested", reported.peek().getMessage());
    }

    @Test
    void withoutAnSlf4jBindingAHandlerFailureIsLoggedAsOneLine() throws Exception {
        FlowServer server = FlowServer.builder().threadPerSession().handler(Echo.class).start(ANY_LOOPBACK_PORT);
        servers.add(server);
        try (LogCapture log = new LogCapture(FlowServer.class)) {
            try (Transport t = connector.connect(server.localAddress())) {
                t.writeLine("boom");
                assertNull(t.readLine());
            }
            Conditions.await("the failure to be logged", () -> !log.lines().isEmpty(), () -> log.lines().toString());
            assertEquals(1, log.lines().size(), log.lines()::toString);
            String line = log.lines().get(0);
            assertTrue(line.startsWith("WARNING session "), line);
            assertTrue(line.contains("failed: java.lang.IllegalStateException: boom requested at "), line);
            assertFalse(line.contains("[stack trace]"), line);
        }
    }

    @Test
    void closingTheServerInterruptsAndEndsSessionThreads() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        FlowServer server = start(FlowServer.builder().threadPerSession().runnableHandler(t -> () -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        Transport t = connector.connect(server.localAddress());
        Conditions.await("the handler thread to run", () -> server.stats().running() == 1, () -> server.stats().toString());
        server.close();
        assertEquals(0, sessionThreads(), "close() returns once the session threads have ended");
        assertEquals(1, server.stats().completed() + server.stats().stopped(), server.stats().toString());
        t.close();
    }

    @Test
    void closingTheSchedulerBeforeTheServerLogsOneLineForTheServerNotOnePerSession() throws Exception {
        dev.flow.loader.ContinuationClassLoader loader =
                dev.flow.loader.ContinuationClassLoader.builder().include("flowtest.mina").build();
        FlowScheduler scheduler = FlowScheduler.builder().workers(1).name("closing-test").build();
        schedulers.add(scheduler);
        Queue<String> outcomes = new ConcurrentLinkedQueue<>();
        try (LogCapture log = new LogCapture(FlowServer.class)) {
            FlowServer server = FlowServer.builder().scheduler(scheduler).ioProcessors(1)
                    .handler(loader, "flowtest.mina.LineEcho", outcomes).start(ANY_LOOPBACK_PORT);
            servers.add(server);
            List<Transport> clients = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Transport t = connector.connect(server.localAddress());
                t.writeLine("ping");
                assertEquals("ping", t.readLine());
                clients.add(t);
            }
            Conditions.await("the flows to suspend", () -> scheduler.stats().suspended() == 3, () -> scheduler.stats().toString());
            scheduler.close();
            for (Transport t : clients) {
                try {
                    t.writeLine("wake up"); // a scheduler that fails suspended flows only when woken needs this
                } catch (IOException alreadyClosed) {
                    // a scheduler that fails them as it closes has ended the session already
                }
            }
            Transport late = connector.connect(server.localAddress());
            Conditions.await("every session to stop", () -> server.stats().stopped() == 4, () -> server.stats().toString());
            for (Transport t : clients) {
                assertNull(t.readLine());
                t.close();
            }
            assertNull(late.readLine());
            late.close();
            server.close();
            assertEquals(0, server.stats().failed(), server.stats().toString());
            assertEquals(1, log.lines().size(), log.lines()::toString);
            assertTrue(log.lines().get(0).contains("was closed before the server"), log.lines().get(0));
            assertFalse(log.lines().get(0).contains("[stack trace]"), log.lines().get(0));
        }
        assertTrue(reported.isEmpty(), reported::toString);
    }

    /** Waits for a go signal, then reads exactly {@code length} bytes and answers with their sum. */
    public static final class LateReader implements Callable<Long> {
        private final Transport t;
        private final CountDownLatch go;
        private final Integer length;

        public LateReader(Transport t, CountDownLatch go, Integer length) {
            this.t = t;
            this.go = go;
            this.length = length;
        }

        @Override
        public Long call() throws IOException, InterruptedException {
            if (!go.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no go signal within 20 s");
            }
            long sum = 0;
            // The caller's array: readFully(length) would reserve it in the (small) budget and fail.
            byte[] all = new byte[length];
            t.readFully(all, 0, length);
            for (byte b : all) {
                sum += b & 0xff;
            }
            t.writeLine(String.valueOf(sum));
            return sum;
        }
    }

    @Test
    void anInputBudgetCapsTheInputBufferedAcrossTheServersSessions() throws Exception {
        int sessions = 4;
        int length = 256 * 1024;
        InputBudget budget = new InputBudget(32 * 1024);
        CountDownLatch go = new CountDownLatch(1);
        FlowServer server = start(FlowServer.builder().threadPerSession().inputBudget(budget)
                .handler(LateReader.class, go, length));
        InetSocketAddress address = (InetSocketAddress) server.localAddress();
        byte[] data = new byte[length];
        long expected = 0;
        for (int i = 0; i < length; i++) {
            data[i] = (byte) (i * 31);
            expected += data[i] & 0xff;
        }
        List<Socket> sockets = new ArrayList<>();
        List<java.util.concurrent.CompletableFuture<String>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < sessions; i++) {
                Socket raw = new Socket(address.getAddress(), address.getPort());
                raw.setSoTimeout(20_000);
                sockets.add(raw);
                answers.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                    try {
                        raw.getOutputStream().write(data);
                        return new BufferedReader(new InputStreamReader(raw.getInputStream(), StandardCharsets.US_ASCII)).readLine();
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }));
            }
            Conditions.await("the sessions to buffer up to the cap", () -> budget.usedBytes() >= budget.maxBytes(),
                    budget::toString);
            long maxSlack = sessions * 64L * 1024; // what MINA had read already when the cap was hit: one read buffer each
            assertTrue(budget.usedBytes() <= budget.maxBytes() + maxSlack, "over the cap: " + budget);
            assertTrue(budget.usedBytes() < (long) sessions * length / 2, "reading stopped at the cap: " + budget);
            go.countDown();
            for (java.util.concurrent.CompletableFuture<String> a : answers) {
                assertEquals(String.valueOf(expected), a.get(20, TimeUnit.SECONDS), () -> "every byte arrives, in order: "
                        + budget + " " + server.stats());
            }
        } finally {
            for (Socket raw : sockets) {
                raw.close();
            }
        }
        Conditions.await("the sessions to complete", () -> server.stats().completed() == sessions, () -> server.stats().toString());
        Conditions.await("the budget to be released", () -> budget.usedBytes() == 0, budget::toString);
    }
}
