package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.TransportConfig;
import dev.flow.loader.ContinuationClassLoader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What peers cause at any rate (resets, protocol errors) is counted in the stats and logged as one
 * summary line per interval, never a line per connection; the default {@code maxSessions} comes from the
 * process's descriptor limit.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FlowServerPeerEventsTest {

    private static final int PEERS = 40;

    private static final ContinuationClassLoader LOADER = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(true).build();

    private final List<FlowServer> servers = new ArrayList<>();
    private final FlowScheduler scheduler = FlowScheduler.builder().workers(2).name("peer-events").build();

    @AfterEach
    void closeServers() {
        for (FlowServer s : servers) {
            s.close();
            assertEquals(0, s.openSessions(), "open sessions after close");
        }
        scheduler.close();
        assertEquals(0, scheduler.stats().running(), scheduler.stats().toString());
        assertEquals(0, scheduler.stats().suspended(), scheduler.stats().toString());
    }

    private FlowServer start(TransportConfig config) throws IOException {
        FlowServer server = FlowServer.builder().threadPerSession().config(config)
                .handler(FlowServerSessionsTest.Echo.class)
                .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        servers.add(server);
        return server;
    }

    private static Socket connect(FlowServer server) throws IOException {
        Socket s = new Socket();
        s.connect(server.localAddress(), 5_000);
        return s;
    }

    private static long ended(SessionStats s) {
        return s.completed() + s.closedByPeer() + s.timedOut() + s.failed() + s.stopped() + s.rejected();
    }

    @Test
    void peersThatResetAreCountedAndLoggedInOneLineNotOnePerConnection() throws Exception {
        try (LogCapture log = new LogCapture(FlowServer.class)) {
            FlowServer server = start(TransportConfig.DEFAULT);
            for (int i = 0; i < PEERS; i++) {
                try (Socket s = connect(server)) {
                    s.getOutputStream().write("hello\n".getBytes(StandardCharsets.US_ASCII));
                    assertEquals('h', s.getInputStream().read(), "the session is served before the reset");
                    s.setSoLinger(true, 0);
                }
            }
            Conditions.await("every session to end", () -> ended(server.stats()) == PEERS, () -> server.stats().toString());
            SessionStats stats = server.stats();
            assertEquals(PEERS, stats.closedByPeer(), stats.toString());
            assertEquals(0, stats.failed(), stats.toString());
            assertTrue(stats.resets() >= 1 && stats.resets() <= PEERS, stats.toString());
            // the line is written on the server's setup thread, not on the I/O thread that saw the reset
            Conditions.await("the line to be written", () -> !log.lines().isEmpty(), () -> log.lines().toString());
            List<String> lines = log.lines();
            assertEquals(1, lines.size(), lines.toString());
            assertTrue(lines.get(0).startsWith("WARNING FlowServer[" + server.localAddress() + ", open="), lines.get(0));
            assertTrue(lines.get(0).contains(" connections reset or broken by peers (last: /127.0.0.1:"), lines.get(0));
        }
    }

    /**
     * A peer-event line that is slow to write delays no session: the logging back-end's first-time set-up
     * held the server's setup thread, and with it every new session's handler, 110-140 ms at the start of a
     * reset flood in a bench run. Here a log handler holds the reset's line until a new session has answered.
     */
    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void aPeerEventLineSlowToWriteDelaysNoNewSessionsHandler(ServerMode mode) throws Exception {
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch answered = new CountDownLatch(1);
        Handler slow = new Handler() {
            @Override
            public void publish(LogRecord r) {
                writing.countDown();
                try {
                    answered.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger(FlowServer.class.getName());
        logger.addHandler(slow);
        try {
            FlowServer server = mode.builder(scheduler)
                    .handler(LOADER, "flowtest.mina.LineEcho", new ConcurrentLinkedQueue<String>())
                    .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
            servers.add(server);
            try (Socket reset = connect(server)) {
                reset.setSoLinger(true, 0);
            }
            assertTrue(writing.await(10, TimeUnit.SECONDS), "the reset's line is written; " + server.stats());
            try (Socket s = connect(server)) {
                s.setSoTimeout(5_000);
                s.getOutputStream().write("hello\n".getBytes(StandardCharsets.US_ASCII));
                BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
                assertEquals("hello", in.readLine(), "answered while the line is being written");
            }
        } finally {
            answered.countDown();
            logger.removeHandler(slow);
        }
    }

    @Test
    void protocolErrorsAreCountedAndSummarizedByTheDefaultFailureHandler() throws Exception {
        try (LogCapture log = new LogCapture(FlowServer.class)) {
            FlowServer server = start(TransportConfig.builder().maxLineLength(16).build());
            for (int i = 0; i < PEERS; i++) {
                try (Socket s = connect(server)) {
                    s.getOutputStream().write(("x".repeat(64) + "\n").getBytes(StandardCharsets.US_ASCII));
                    assertEquals(-1, s.getInputStream().read(), "the server closes the session");
                }
            }
            Conditions.await("every session to end", () -> ended(server.stats()) == PEERS, () -> server.stats().toString());
            SessionStats stats = server.stats();
            assertEquals(PEERS, stats.failed(), stats.toString());
            assertEquals(PEERS, stats.protocolErrors(), stats.toString());
            Conditions.await("the line to be written", () -> !log.lines().isEmpty(), () -> log.lines().toString());
            List<String> lines = log.lines();
            assertEquals(1, lines.size(), lines.toString());
            assertTrue(lines.get(0).contains(" sessions failed by a peer's protocol error (last: MinaTransport["), lines.get(0));
            server.close();
            lines = log.lines();
            assertEquals(2, lines.size(), lines.toString());
            assertTrue(lines.get(1).endsWith(" sessions failed by a peer's protocol error, " + PEERS
                    + " in all; at most one such line every 10 s"), lines.get(1));
            assertEquals(PEERS, count(lines.get(0)) + count(lines.get(1)), lines.toString());
        }
    }

    /** The number of events a summary line reports. */
    private static long count(String line) {
        Matcher m = Pattern.compile("]: (\\d+) ").matcher(line);
        assertTrue(m.find(), line);
        return Long.parseLong(m.group(1));
    }

    @Test
    void theDefaultMaxSessionsIsTheDescriptorLimitLessATenthAndAtLeast64() {
        assertEquals(18_000, FlowServer.maxSessionsFor(20_000));
        assertEquals(922, FlowServer.maxSessionsFor(1_024));
        assertEquals(36, FlowServer.maxSessionsFor(100));
        assertEquals(1, FlowServer.maxSessionsFor(10));
        assertEquals(Integer.MAX_VALUE, FlowServer.maxSessionsFor(Long.MAX_VALUE));
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        int expected = os instanceof com.sun.management.UnixOperatingSystemMXBean
                ? FlowServer.maxSessionsFor(((com.sun.management.UnixOperatingSystemMXBean) os).getMaxFileDescriptorCount())
                : FlowServer.FALLBACK_MAX_SESSIONS;
        assertEquals(expected, FlowServer.defaultMaxSessions());
    }

    @Test
    void outOfDescriptorsIsTheProcessOrTheSystemLimitAndNothingElse() {
        assertTrue(FlowSocketAcceptor.outOfDescriptors(new IOException("Too many open files")));
        assertTrue(FlowSocketAcceptor.outOfDescriptors(new IOException("Too many open files in system")));
        assertTrue(!FlowSocketAcceptor.outOfDescriptors(new IOException("Connection reset by peer")));
        assertTrue(!FlowSocketAcceptor.outOfDescriptors(new IOException()));
    }
}
