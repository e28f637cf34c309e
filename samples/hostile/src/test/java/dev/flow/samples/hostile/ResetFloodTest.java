package dev.flow.samples.hostile;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.samples.http.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Finding 3 of issue 14: a flood of connections that each connect and reset at once. The HTTP sample
 * logs a few summary lines, however many resets, counts the resets, and keeps serving a good client.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ResetFloodTest {

    private static final int FLOOD = 3_000;
    private static final Duration FLOOD_LIMIT = Duration.ofSeconds(30);
    /** Lines the server may print during the flood and its stop: a summary per 10 s and one at the stop. */
    private static final int MAX_LINES = 8;
    /** How long the good client waits for an answer: long enough for a loaded CI machine. */
    private static final Duration GOOD_CLIENT_TIMEOUT = Duration.ofSeconds(20);
    private static final Pattern RESETS = Pattern.compile(": (\\d+) connections reset or broken by peers");

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation", "continuation-io-threads"})
    void aResetFloodIsCountedInAFewLinesWhileAGoodClientIsServed(String mode) throws Exception {
        try (SampleProcess server = SampleProcess.of(HttpServer.class).jvm("-Xmx64m").args(Modes.args(mode)).start()) {
            int before = server.lines().size();
            AtomicBoolean flooding = new AtomicBoolean(true);
            AtomicInteger served = new AtomicInteger();
            AtomicReference<Throwable> goodFailed = new AtomicReference<>();
            Thread good = new Thread(() -> {
                try (HttpProbe p = HttpProbe.connect(server.port(), GOOD_CLIENT_TIMEOUT)) {
                    while (flooding.get()) {
                        if (p.get("/") != 200) {
                            throw new IOException("status: not 200");
                        }
                        served.incrementAndGet();
                    }
                } catch (IOException | RuntimeException e) {
                    goodFailed.set(e);
                }
            }, "good-client");
            good.start();
            int sent = 0;
            try {
                assertTrue(Conditions.await(() -> served.get() > 0 || goodFailed.get() != null, GOOD_CLIENT_TIMEOUT),
                        "the good client got no answer before the flood");
                int servedBefore = served.get();
                long deadline = System.nanoTime() + FLOOD_LIMIT.toNanos();
                while (sent < FLOOD && System.nanoTime() - deadline < 0) {
                    connectAndReset(server.port());
                    sent++;
                }
                assertTrue(Conditions.await(() -> served.get() > servedBefore || goodFailed.get() != null, GOOD_CLIENT_TIMEOUT),
                        "the good client got no answer after the flood");
            } finally {
                flooding.set(false);
                good.join(TimeUnit.SECONDS.toMillis(20));
            }
            assertNull(goodFailed.get(), "the good client failed after " + served.get() + " requests: " + goodFailed.get());
            assertTrue(HttpProbe.served(server.port(), Duration.ofSeconds(10)), "not served after the flood");
            assertNotEquals(-1, server.terminate(Duration.ofSeconds(20)), "SIGTERM did not stop the server");
            List<String> printed = server.lines().subList(before, server.lines().size());
            assertTrue(printed.size() <= MAX_LINES, printed.size() + " lines for " + sent + " resets (expected: at most "
                    + MAX_LINES + "):\n" + String.join("\n", printed.subList(0, Math.min(40, printed.size()))));
            long counted = 0;
            for (String l : printed) {
                Matcher m = RESETS.matcher(l);
                if (m.find()) {
                    counted += Long.parseLong(m.group(1));
                }
            }
            assertTrue(counted > sent / 2 && counted <= sent, counted + " resets in the summary lines (expected: most of the "
                    + sent + " sent):\n" + String.join("\n", printed));
        }
    }

    /** Connects and closes with SO_LINGER 0: the server sees a reset, not an end of stream. */
    private static void connectAndReset(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
            s.setSoLinger(true, 0);
        }
    }
}
