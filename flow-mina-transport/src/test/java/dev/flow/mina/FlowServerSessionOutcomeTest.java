package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.TransportConfig;
import dev.flow.loader.ContinuationClassLoader;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.mina.core.filterchain.IoFilterAdapter;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.transport.socket.nio.NioSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * How sessions that end by a fault are counted, whichever of the handler and MINA's events comes
 * first. A peer that resets while the server writes is the peer's doing: MINA fails the queued writes
 * with {@code WriteToClosedSessionException} before it reports the session closed. An idle timeout is
 * a timeout, although the transport reports it to the handler as a failed connection and MINA reports
 * the session closed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FlowServerSessionOutcomeTest {

    private static final int SESSIONS = 60;
    private static final ContinuationClassLoader LOADER = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(true).build();

    private final Queue<Throwable> reported = new ConcurrentLinkedQueue<>();
    private final List<FlowServer> servers = new ArrayList<>();
    private final FlowScheduler scheduler = FlowScheduler.builder().workers(2).name("peer-reset").build();

    @AfterEach
    void closeAll() throws Exception {
        Teardown.closeAll(FlowConnector.builder().build(), servers, scheduler);
    }

    /**
     * A peer that sees its session close finds its end counted: the server counts a session's outcome
     * before it closes it. A filter holds the closing thread after the close, until the test has read
     * the stats (1 s at most): the count came after the close, so the stats read then showed completed=0
     * (the race of a rejected session in FlowServerSessionsTest, and of a .ci/run's Redis sample test).
     * Not with IO_THREADS: there the closing thread is the I/O thread that must close the session.
     */
    @ParameterizedTest
    @EnumSource(value = ServerMode.class, names = {"SYNC", "WORKERS"})
    void aSessionIsCountedBeforeItsPeerSeesItClose(ServerMode mode) throws Exception {
        CountDownLatch read = new CountDownLatch(1);
        AtomicBoolean held = new AtomicBoolean();
        FlowServer server = mode.builder(scheduler)
                .handler(LOADER, "flowtest.mina.HeadServer", new ConcurrentLinkedQueue<String>())
                .filter("slow-close", new IoFilterAdapter() {
                    @Override
                    public void filterClose(NextFilter next, IoSession session) throws Exception {
                        // Marked before the close goes on: the peer may see it before this thread runs again.
                        boolean first = held.compareAndSet(false, true);
                        next.filterClose(session);
                        if (first) {
                            read.await(1, TimeUnit.SECONDS);
                        }
                    }
                })
                .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        servers.add(server);
        SessionStats seen;
        try (Socket s = new Socket()) {
            s.connect(server.localAddress(), 5_000);
            s.setSoTimeout(10_000);
            s.getOutputStream().write("hello\n\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            s.shutdownOutput();
            assertEquals("done 2\n", new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII));
            seen = server.stats();
        } finally {
            read.countDown();
        }
        assertTrue(held.get(), "the filter held the close");
        assertEquals(1, seen.completed(), seen.toString());
    }

    /**
     * A failed session is reported to the failure handler before it is counted and before it closes: a
     * caller that sees {@code failed() == n}, or a peer that sees the close, finds every report made (a
     * .ci/run's FlowServerHandlerTest saw failed=2 with one report). The handler fails in every mode: it
     * throws on a thread of its own, and a lambda is refused by the continuation modes.
     */
    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void aFailedSessionIsReportedBeforeItIsCountedAndBeforeItsPeerSeesTheClose(ServerMode mode) throws Exception {
        AtomicReference<FlowServer> self = new AtomicReference<>();
        Queue<Long> failedWhenReported = new ConcurrentLinkedQueue<>();
        FlowServer server = mode.builder(scheduler)
                .handler(t -> () -> {
                    throw new IllegalStateException("the handler fails");
                })
                .onFailure((t, e) -> {
                    failedWhenReported.add(self.get().stats().failed());
                    reported.add(e);
                })
                .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        self.set(server);
        servers.add(server);
        assertEquals("", converse(server, "hello\n", false));
        assertEquals(1, reported.size(), "reported when the peer saw the close: " + reported);
        assertEquals(List.of(0L), new ArrayList<>(failedWhenReported), "failed() when the failure was reported");
        assertEquals(1, server.stats().failed(), server.stats().toString());
    }

    @Test
    void peerResetDuringResponseCountsAsClosedByPeerInContinuationMode() throws Exception {
        assertResetsAreThePeersDoing(FlowServer.builder().scheduler(scheduler));
    }

    @Test
    void peerResetDuringResponseCountsAsClosedByPeerInSyncMode() throws Exception {
        assertResetsAreThePeersDoing(FlowServer.builder().threadPerSession());
    }

    /**
     * A connect-then-reset flood costs no handler: a session whose peer has reset before the server's
     * first read of it never gets a thread or a flow. A filter holds each session on its I/O thread until
     * its socket reports the reset, so that the reset is there before that read.
     */
    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void aPeerThatResetBeforeTheFirstReadGetsNoHandler(ServerMode mode) throws Exception {
        Queue<String> outcomes = new ConcurrentLinkedQueue<>();
        FlowServer server = mode.builder(scheduler)
                .filter("hold-until-reset", new IoFilterAdapter() {
                    @Override
                    public void sessionCreated(NextFilter next, IoSession session) throws Exception {
                        SelectableChannel channel = (SelectableChannel) ((NioSession) session).getChannel();
                        try (Selector reset = Selector.open()) {
                            channel.register(reset, SelectionKey.OP_READ);
                            if (reset.select(10_000) == 0) {
                                throw new IllegalStateException("no reset within 10 s");
                            }
                        }
                        next.sessionCreated(session);
                    }
                })
                .handler(LOADER, "flowtest.mina.LineEcho", outcomes)
                .onFailure((t, e) -> reported.add(e))
                .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        servers.add(server);
        for (int i = 0; i < SESSIONS; i++) {
            try (Socket s = new Socket()) {
                s.connect(server.localAddress(), 5_000);
                s.setSoLinger(true, 0);
            }
        }
        Conditions.await("every session to end", () -> ended(server.stats()) == SESSIONS, () -> server.stats().toString());
        SessionStats s = server.stats();
        assertEquals(SESSIONS, s.closedByPeer(), s.toString());
        assertEquals(List.of(), new ArrayList<>(outcomes), "handlers run; " + s);
        assertEquals(0, scheduler.stats().started(), scheduler.stats().toString());
        assertEquals(List.of(), new ArrayList<>(reported), s.toString());
    }

    @Test
    void idleTimeoutCountsAsTimedOutNotAsFailureOrPeer() throws Exception {
        FlowServer server = FlowServer.builder().scheduler(scheduler)
                .config(TransportConfig.builder().idleTimeout(Duration.ofSeconds(1)).build())
                .handler(LOADER, "flowtest.mina.LineEcho", new ConcurrentLinkedQueue<String>())
                .onFailure((t, e) -> reported.add(e))
                .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        servers.add(server);
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < SESSIONS; i++) {
                Socket s = new Socket();
                idle.add(s);
                s.connect(server.localAddress(), 5_000);
            }
            Conditions.await("every session to end", () -> ended(server.stats()) == SESSIONS,
                    () -> server.stats().toString());
        } finally {
            for (Socket s : idle) {
                s.close();
            }
        }
        SessionStats s = server.stats();
        assertEquals(List.of(), new ArrayList<>(reported), s.toString());
        assertEquals(SESSIONS, s.timedOut(), s.toString());
    }

    @Test
    void outcomesRecordedByTheHandlerAreCountedInContinuationMode() throws Exception {
        assertRecordedOutcomesAreCounted(FlowServer.builder().scheduler(scheduler));
    }

    @Test
    void outcomesRecordedByTheHandlerAreCountedInSyncMode() throws Exception {
        assertRecordedOutcomesAreCounted(FlowServer.builder().threadPerSession());
    }

    private void assertRecordedOutcomesAreCounted(FlowServer.Builder b) throws Exception {
        FlowServer server = b.handler(LOADER, "flowtest.mina.OutcomeRecorder")
                .onFailure((t, e) -> reported.add(e))
                .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        servers.add(server);
        assertEquals("250 NOOP\n421 timeout\n", converse(server, "NOOP\r\n", false));
        assertEquals("500 bare LF\n", converse(server, "HELO x\n", false));
        assertEquals("500 bare LF\n", converse(server, "HELO x\n", false));
        assertEquals("250 QUIT\n", converse(server, "QUIT\r\n", false));
        assertEquals("", converse(server, "", true));
        Conditions.await("every session to end", () -> ended(server.stats()) == 5, () -> server.stats().toString());
        SessionStats s = server.stats();
        assertEquals(List.of(), new ArrayList<>(reported), s.toString());
        assertEquals(1, s.completed(), s.toString());
        assertEquals(1, s.timedOut(), s.toString());
        assertEquals(2, s.failed(), s.toString());
        assertEquals(2, s.protocolErrors(), s.toString());
        assertEquals(1, s.closedByPeer(), s.toString());
    }

    /** Sends {@code text}, optionally shuts the output down, and returns all the server says until it closes. */
    private static String converse(FlowServer server, String text, boolean shutdown) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(server.localAddress(), 5_000);
            s.setSoTimeout(10_000);
            s.getOutputStream().write(text.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            if (shutdown) {
                s.shutdownOutput();
            }
            return new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
        }
    }

    private void assertResetsAreThePeersDoing(FlowServer.Builder b) throws Exception {
        FlowServer server = b.handler(LOADER, "flowtest.mina.Streamer")
                .onFailure((t, e) -> reported.add(e))
                .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        servers.add(server);
        for (int i = 0; i < SESSIONS; i++) {
            resetAfterSomeOfTheResponse(server);
        }
        Conditions.await("every session to end", () -> ended(server.stats()) == SESSIONS, () -> server.stats().toString());
        SessionStats s = server.stats();
        assertEquals(List.of(), new ArrayList<>(reported), s.toString());
        assertEquals(SESSIONS, s.closedByPeer(), s.toString());
        assertEquals(0, s.failed(), s.toString());
    }

    private static void resetAfterSomeOfTheResponse(FlowServer server) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(server.localAddress(), 5_000);
            s.setSoTimeout(10_000);
            int got = s.getInputStream().readNBytes(32 * 1024).length;
            assertEquals(32 * 1024, got);
            s.setSoLinger(true, 0);
        }
    }

    private static long ended(SessionStats s) {
        return s.completed() + s.closedByPeer() + s.timedOut() + s.failed() + s.stopped() + s.rejected();
    }

}
