package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.TransportConfig;
import dev.flow.loader.ContinuationClassLoader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link TransportConfig#requestTimeout()}: a peer that trickles a request, each byte or line in time
 * for any per-read timeout, is cut off once the request is older than the timeout (plus its earned
 * time); a peer that sends at a good rate, or waits between requests, never is. In each mode.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FlowServerSlowPeerTest {

    private static final ContinuationClassLoader LOADER = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(true).build();

    private final Queue<String> outcomes = new ConcurrentLinkedQueue<>();
    private final List<FlowServer> servers = new ArrayList<>();
    private final FlowScheduler scheduler = FlowScheduler.builder().workers(2).name("slow-peer").build();

    @AfterEach
    void closeAll() throws Exception {
        Teardown.closeAll(FlowConnector.builder().build(), servers, scheduler);
    }

    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void aPeerTricklingTheLinesOfARequestIsCutOffAtTheRequestTimeout(ServerMode mode) throws Exception {
        FlowServer server = start(mode, TransportConfig.builder().requestTimeout(Duration.ofSeconds(1))
                .idleTimeout(Duration.ofSeconds(30)).build());
        try (Socket s = connect(server)) {
            OutputStream out = s.getOutputStream();
            long t0 = System.nanoTime();
            // One line every 100 ms: every line completes, no read waits long, the head never ends.
            for (int i = 0; i < 100 && server.stats().timedOut() == 0; i++) {
                out.write("x: 1\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                awaitQuietly(() -> server.stats().timedOut() > 0, Duration.ofMillis(100));
            }
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertEquals(1, server.stats().timedOut(), server.stats().toString());
            assertTrue(ms >= 950 && ms < 5_000, "cut off after " + ms + " ms (requestTimeout 1000 ms)");
            assertEquals(-1, s.getInputStream().read(), "the server closes the connection");
        }
        String outcome = awaitOutcome();
        assertTrue(outcome.startsWith("SocketTimeoutException: request from ")
                && outcome.contains(" bytes received (requestTimeout 1000 ms, minRequestRate 0 bytes/s)"), outcome);
        assertEquals(0, server.stats().failed(), server.stats().toString());
    }

    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void aPeerSendingFastOrWaitingBetweenRequestsIsNeverCutOff(ServerMode mode) throws Exception {
        FlowServer server = start(mode, TransportConfig.builder().requestTimeout(Duration.ofMillis(500))
                .minRequestRate(1000).build());
        String line = "x: " + "y".repeat(996) + "\n";
        try (Socket s = connect(server)) {
            OutputStream out = s.getOutputStream();
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
            // 20 lines of 1,000 bytes, one every 50 ms: about a second, twice the 500 ms, at 20 times
            // minRequestRate.
            for (int i = 0; i < 20; i++) {
                out.write(line.getBytes(StandardCharsets.US_ASCII));
                out.flush();
                awaitQuietly(() -> server.stats().timedOut() > 0, Duration.ofMillis(50));
            }
            out.write('\n');
            out.flush();
            assertEquals("done 21", in.readLine());
            // Idle between requests for longer than the request timeout: not a request.
            awaitQuietly(() -> server.stats().timedOut() > 0, Duration.ofMillis(700));
            out.write("quick\n\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertEquals("done 2", in.readLine());
        }
        Conditions.await("the session to end", () -> server.stats().completed() == 1, () -> server.stats().toString());
        assertEquals(0, server.stats().timedOut(), server.stats().toString());
    }

    private FlowServer start(ServerMode mode, TransportConfig config) throws IOException {
        FlowServer server = mode.builder(scheduler).config(config)
                .handler(LOADER, "flowtest.mina.HeadServer", outcomes)
                .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        servers.add(server);
        return server;
    }

    private static Socket connect(FlowServer server) throws IOException {
        Socket s = new Socket();
        s.connect(server.localAddress(), 5_000);
        s.setSoTimeout(10_000);
        return s;
    }

    private String awaitOutcome() {
        Conditions.await("the handler to report how it ended", () -> outcomes.stream().anyMatch(o -> !o.equals("head")),
                outcomes::toString);
        return outcomes.stream().filter(o -> !o.equals("head")).findFirst().orElseThrow();
    }

    /** Waits up to {@code timeout} for {@code condition}, without failing: the pace of a peer. */
    private static void awaitQuietly(java.util.function.BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() - deadline < 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
    }
}
