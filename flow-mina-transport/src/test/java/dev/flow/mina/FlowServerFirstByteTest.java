package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.Transport;
import dev.flow.TransportConfig;
import dev.flow.loader.ContinuationClassLoader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link FlowServer.Builder#clientSpeaksFirst(boolean)}: accepted connections wait on the acceptor for
 * their first byte before a session is made; those that never send are closed after {@link
 * FlowServer.Builder#firstByteTimeout(Duration)}, they count against {@code maxSessions}, a stop closes
 * them, one that resets first makes no session and is counted; with the option off a server that
 * speaks first is served as before.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FlowServerFirstByteTest {

    private static final ContinuationClassLoader LOADER = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(true).build();

    private final List<FlowServer> servers = new ArrayList<>();
    private final List<Socket> clients = new ArrayList<>();
    private final FlowScheduler scheduler = FlowScheduler.builder().workers(2).name("first-byte").build();
    private final Queue<String> outcomes = new ConcurrentLinkedQueue<>();

    @AfterEach
    void closeAll() throws Exception {
        for (Socket s : clients) {
            s.close();
        }
        for (FlowServer s : servers) {
            s.close();
            assertEquals(0, s.awaitingFirstByte(), "connections left waiting for their first byte after close");
        }
        servers.clear();
        Teardown.closeAll(FlowConnector.builder().build(), servers, scheduler);
    }

    private FlowServer start(FlowServer.Builder builder) throws IOException {
        FlowServer server = builder.start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        servers.add(server);
        return server;
    }

    private FlowServer echo(FlowServer.Builder options) throws IOException {
        return start(options.handler(LOADER, "flowtest.mina.LineEcho", outcomes));
    }

    private Socket connect(FlowServer server) throws IOException {
        Socket s = new Socket(Pairs.LOOPBACK, ((InetSocketAddress) server.localAddress()).getPort());
        clients.add(s);
        s.setSoTimeout(20_000);
        return s;
    }

    /** Connects to {@code server} and waits until the connection waits there for its first byte. */
    private Socket waiting(FlowServer server) throws IOException {
        Socket s = connect(server);
        Conditions.await("the connection to wait for its first byte", () -> server.awaitingFirstByte() == 1,
                () -> "waiting " + server.awaitingFirstByte());
        return s;
    }

    /** Whether the server closed {@code s}: its next read sees the end of the stream or a reset. */
    private static boolean closedByServer(Socket s) throws IOException {
        try {
            return s.getInputStream().read() == -1;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void aRequestIsServedWhenTheClientSpeaksFirst(ServerMode mode) throws Exception {
        FlowServer server = echo(mode.builder(scheduler).clientSpeaksFirst(true));
        Socket s = connect(server);
        OutputStream out = s.getOutputStream();
        BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
        out.write("hello\nquit\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        assertEquals("hello", in.readLine());
        assertEquals("bye", in.readLine());
        Conditions.await("the session to complete", () -> server.stats().completed() == 1, () -> server.stats().toString());
        assertEquals(0, server.awaitingFirstByte());
    }

    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void aWakeUpWhoseReadFindsNothingLeavesTheConnectionWaitingForItsFirstByte(ServerMode mode) throws Exception {
        FlowServer server = echo(mode.builder(scheduler).clientSpeaksFirst(true));
        // The first two reads of each connection (the one at accept, then the one of the first wake-up)
        // find nothing, as when the selector woke the acceptor just before the first byte came (or for no
        // reason): the byte then races that read.
        Map<SocketChannel, AtomicInteger> reads = new ConcurrentHashMap<>();
        server.tcpAcceptor().probeReads((ch, into) ->
                reads.computeIfAbsent(ch, c -> new AtomicInteger()).incrementAndGet() <= 2 ? 0 : ch.read(into));
        Socket s = connect(server);
        assertEchoes(s);
        assertTrue(server.tcpAcceptor().emptyWakeups() >= 1, "the acceptor's read found nothing at least once");
        Conditions.await("the session to complete", () -> server.stats().completed() == 1, () -> server.stats().toString());
        assertEquals(0, server.stats().resets(), server.stats().toString());
        assertEquals(0, server.stats().closedByPeer(), server.stats().toString());
    }

    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void theBytesTheAcceptorReadBeforeTheSessionComeFirstInTheSessionsInput(ServerMode mode) throws Exception {
        FlowServer server = echo(mode.builder(scheduler).clientSpeaksFirst(true));
        // The acceptor's read takes only the first byte: the rest comes through the session's own reads.
        server.tcpAcceptor().probeReads((ch, into) -> ch.read(into.limit(1)));
        Socket s = connect(server);
        assertEchoes(s);
        Conditions.await("the session to complete", () -> server.stats().completed() == 1, () -> server.stats().toString());
    }

    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void aPeerThatSendsItsFirstLineAndHalfClosesIsAnsweredThenSeesTheEnd(ServerMode mode) throws Exception {
        FlowServer server = echo(mode.builder(scheduler).clientSpeaksFirst(true));
        Socket s = connect(server);
        s.getOutputStream().write("hello\n".getBytes(StandardCharsets.US_ASCII));
        s.shutdownOutput();
        BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
        assertEquals("hello", in.readLine());
        assertEquals(null, in.readLine(), "the end of the stream after the answer");
        Conditions.await("the session to complete", () -> server.stats().completed() == 1, () -> server.stats().toString());
        assertEquals(List.of("eof"), List.copyOf(outcomes), "the handler read the end of the stream after the line");
        assertEquals(0, server.stats().closedByPeer(), server.stats().toString());
    }

    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void aPeerThatSendsOneByteAndHalfClosesGetsASessionThatReadsTheByteThenTheEnd(ServerMode mode) throws Exception {
        FlowServer server = echo(mode.builder(scheduler).clientSpeaksFirst(true));
        Socket s = connect(server);
        s.getOutputStream().write('x');
        s.shutdownOutput();
        BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
        assertEquals("x", in.readLine(), "the unterminated last line is echoed");
        assertEquals(null, in.readLine(), "the end of the stream after the answer");
        Conditions.await("the session to complete", () -> server.stats().completed() == 1, () -> server.stats().toString());
        assertEquals(List.of("eof"), List.copyOf(outcomes));
    }

    /**
     * Connections that waited for their first byte get their sessions while the bound on starting
     * sessions pauses accepts (the first-byte rule bounds them), and accepts resume once the sessions
     * start. The only I/O thread is held by the first session's registration: two connections wait
     * silent, two send (their sessions fill the bound of 2), a fifth connects and finds accepts paused;
     * then the two waiting ones send, and their sessions are made (4 starting). Once the I/O thread goes
     * on, all five are served, the fifth after accepts resumed.
     */
    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void waitingConnectionsGetTheirSessionsWhileAcceptsArePausedAndAcceptsResumeOnceTheyStart(ServerMode mode)
            throws Exception {
        // The hold and the first-byte timeout outlast the waits below, so that a failed wait prints the state
        // it failed in, not the one after the hold or the silent connections' timeout ended.
        FirstSessionHold hold = new FirstSessionHold(Duration.ofSeconds(50));
        FlowServer server = echo(mode.builder(scheduler).clientSpeaksFirst(true).ioProcessors(1).maxStartingSessions(2)
                .firstByteTimeout(Duration.ofSeconds(50)).filter("hold-the-io-thread", hold));
        Duration wait = Duration.ofSeconds(20);
        List<Socket> silent = List.of(connect(server), connect(server));
        Conditions.await("two connections to wait", () -> server.awaitingFirstByte() == 2,
                () -> "waiting " + server.awaitingFirstByte());
        List<Socket> speaking = new ArrayList<>();
        Socket last;
        try {
            for (int i = 1; i <= 2; i++) {
                Socket s = connect(server);
                speaking.add(s);
                s.getOutputStream().write("hello\nquit\n".getBytes(StandardCharsets.US_ASCII));
                int starting = i;
                Conditions.await("sessions to be starting", () -> server.startingSessions() == starting, wait,
                        () -> "starting " + server.startingSessions() + ", " + server.stats());
            }
            last = connect(server);
            Conditions.await("accepts to pause", () -> server.tcpAcceptor().acceptsPaused(), wait,
                    () -> "starting " + server.startingSessions() + ", waiting " + server.awaitingFirstByte() + ", "
                            + server.stats());
            for (Socket s : silent) {
                s.getOutputStream().write("hello\nquit\n".getBytes(StandardCharsets.US_ASCII));
            }
            Conditions.await("the waiting connections' sessions to be made", () -> server.startingSessions() == 4,
                    () -> "starting " + server.startingSessions() + ", waiting " + server.awaitingFirstByte());
            assertEquals(0, server.awaitingFirstByte(), "the fifth connection was not accepted while accepts were paused");
            assertTrue(server.tcpAcceptor().acceptsPaused(), "accepts stay paused while 4 sessions are starting");
        } finally {
            hold.release();
        }
        for (Socket s : speaking) {
            assertAnswered(s);
        }
        for (Socket s : silent) {
            assertAnswered(s);
        }
        assertEchoes(last);
        Conditions.await("every session to complete", () -> server.stats().completed() == 5, () -> server.stats().toString());
        assertEquals(4, server.startingSessionsPeak(), "the two waiting connections' sessions beyond the bound of 2");
        assertEquals(0, server.startingSessions());
        assertEquals(0, server.awaitingFirstByte());
    }

    /** Checks the echo and the goodbye of "hello" and "quit", sent already on {@code s}. */
    private static void assertAnswered(Socket s) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
        assertEquals("hello", in.readLine());
        assertEquals("bye", in.readLine());
    }

    /** Sends "hello" and "quit" on {@code s} and checks the echo and the goodbye. */
    private static void assertEchoes(Socket s) throws IOException {
        s.getOutputStream().write("hello\nquit\n".getBytes(StandardCharsets.US_ASCII));
        assertAnswered(s);
    }

    @Test
    void aConnectionThatNeverSendsIsClosedAfterTheFirstByteTimeout() throws Exception {
        FlowServer server = echo(ServerMode.WORKERS.builder(scheduler).clientSpeaksFirst(true)
                .firstByteTimeout(Duration.ofMillis(300)));
        Socket s = waiting(server);
        long start = System.nanoTime();
        assertTrue(closedByServer(s), "a silent connection is closed by the server");
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(ms < 10_000, "closed after " + ms + " ms (firstByteTimeout 300 ms)");
        Conditions.await("the timeout to be counted", () -> server.stats().timedOut() == 1, () -> server.stats().toString());
        assertEquals(0, server.awaitingFirstByte());
        assertEquals(0, scheduler.stats().started(), "handlers started for a connection that never sent");
        assertEquals(1, server.stats().accepted(), "the connection counts as accepted, with its one outcome: " + server.stats());
    }

    @Test
    void aConnectionThatNeverSendsIsClosedAfterTheIdleTimeoutWhenItIsShorter() throws Exception {
        FlowServer server = echo(ServerMode.WORKERS.builder(scheduler).clientSpeaksFirst(true)
                .config(TransportConfig.builder().idleTimeout(Duration.ofSeconds(1)).build()));
        Socket s = connect(server);
        long start = System.nanoTime();
        assertTrue(closedByServer(s), "a silent connection is closed by the server");
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(ms >= 900 && ms < 10_000, "closed after " + ms + " ms (idleTimeout 1 s, firstByteTimeout 30 s)");
        Conditions.await("the timeout to be counted", () -> server.stats().timedOut() == 1, () -> server.stats().toString());
        assertEquals(0, scheduler.stats().started(), "handlers started for a connection that never sent");
        assertEquals(1, server.stats().accepted(), "the connection counts as accepted, with its one outcome: " + server.stats());
    }

    @Test
    void connectionsWaitingForTheirFirstByteCountAgainstMaxSessions() throws Exception {
        FlowServer server = echo(ServerMode.WORKERS.builder(scheduler).clientSpeaksFirst(true)
                .maxSessions(2));
        connect(server);
        connect(server);
        Conditions.await("two connections to wait", () -> server.awaitingFirstByte() == 2,
                () -> "waiting " + server.awaitingFirstByte());
        Socket third = connect(server);
        assertTrue(closedByServer(third), "a connection beyond maxSessions 2 (two waiting) is closed at once");
        Conditions.await("the rejection to be counted", () -> server.stats().rejected() == 1, () -> server.stats().toString());
        assertEquals(2, server.awaitingFirstByte());
    }

    @Test
    void closeClosesTheConnectionsWaitingForTheirFirstByte() throws Exception {
        FlowServer server = echo(ServerMode.WORKERS.builder(scheduler).clientSpeaksFirst(true));
        Socket s = waiting(server);
        server.close();
        assertTrue(closedByServer(s), "a waiting connection is closed by close()");
        assertEquals(0, server.awaitingFirstByte());
        assertEquals(1, server.stats().stopped(), server.stats().toString());
    }

    @Test
    void aGracefulCloseClosesTheConnectionsWaitingForTheirFirstByteAtOnce() throws Exception {
        FlowServer server = echo(ServerMode.WORKERS.builder(scheduler).clientSpeaksFirst(true));
        Socket s = waiting(server);
        assertTrue(server.close(Duration.ofSeconds(20)), "a clean stop: nothing was in flight");
        assertTrue(closedByServer(s), "a waiting connection is closed by close(grace)");
        assertEquals(1, server.stats().stopped(), server.stats().toString());
    }

    @Test
    void aResetBeforeTheFirstByteMakesNoSessionAndIsCounted() throws Exception {
        FlowServer server = echo(ServerMode.WORKERS.builder(scheduler).clientSpeaksFirst(true));
        Socket s = waiting(server);
        s.setSoLinger(true, 0);
        s.close();
        Conditions.await("the reset to be counted", () -> server.stats().resets() == 1, () -> server.stats().toString());
        assertEquals(0, server.awaitingFirstByte());
        assertEquals(0, scheduler.stats().started(), "handlers started for a connection reset before its first byte");
        Conditions.await("the reset connection to end as closed by its peer", () -> server.stats().closedByPeer() == 1
                && server.stats().accepted() == 1, () -> server.stats().toString());
    }

    @Test
    void aServerThatSpeaksFirstIsServedWithTheOptionOff() throws Exception {
        FlowServer server = start(FlowServer.builder().threadPerSession()
                .handler(t -> (Callable<String>) () -> greet(t)));
        Socket s = connect(server);
        BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
        assertEquals("220 hello", in.readLine(), "the server's greeting before the client sent anything");
        assertEquals(0, server.awaitingFirstByte());
    }

    @Test
    void firstByteTimeoutMustBePositive() {
        FlowServer.Builder b = FlowServer.builder();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.firstByteTimeout(Duration.ZERO));
        assertEquals("firstByteTimeout: PT0S (expected: > 0)", e.getMessage());
        assertThrows(NullPointerException.class, () -> b.firstByteTimeout(null));
    }

    private static String greet(Transport t) throws IOException {
        t.writeLine("220 hello");
        return t.readLine();
    }
}
