package dev.flow.samples.hostile;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.samples.http.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Finding 2 of issue 14: the HTTP sample, started under a descriptor limit of {@value #OPEN_FILES}, is held
 * by {@value #IDLE_CLIENTS} idle connections. It must log a bounded number of lines while it cannot accept,
 * serve a good client once the idle clients leave, give its descriptors back, and stop on SIGTERM.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class DescriptorExhaustionTest {

    private static final int OPEN_FILES = 300;
    private static final int IDLE_CLIENTS = 500;
    /** Lines the server may print while it cannot accept: a summary line per interval, not one per failure. */
    private static final int MAX_LINES_WHILE_EXHAUSTED = 5;
    /** How long the test watches the exhausted server for a log storm. */
    private static final Duration WATCH = Duration.ofSeconds(3);
    /** Descriptors above its baseline the server may still hold once every client has left. */
    private static final int DESCRIPTOR_SLACK = 16;

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation", "continuation-io-threads"})
    void serverThatRunsOutOfDescriptorsLogsLittleAndRecoversWhenClientsLeave(String mode) throws Exception {
        try (SampleProcess server = SampleProcess.of(HttpServer.class)
                .jvm("-Xmx64m")
                .openFiles(OPEN_FILES)
                .args(Modes.args(mode))
                .args("--max-sessions", Integer.toString(IDLE_CLIENTS * 2))
                .start()) {
            // The first session must have ended before the attack takes every descriptor: its end loads classes
            // (each from a file of a target/classes directory, which needs a descriptor). Ended later, on a loaded
            // machine, its flow died of NoClassDefFoundError: dev/flow/internal/FlowEvents, the session never
            // ended, and SIGTERM did not stop the server within 20 s (4 runs of 12 beside 6 busy loops, load 15).
            assertTrue(HttpProbe.servedAndClosed(server.port(), Duration.ofSeconds(10)), "not served before the attack");
            long baseline = server.openDescriptors();
            List<Socket> idle = new ArrayList<>();
            try {
                for (int i = 0; i < IDLE_CLIENTS; i++) {
                    idle.add(connect(server.port()));
                }
                assertNotNull(server.awaitLine(l -> l.contains("Too many open files"), Duration.ofSeconds(20)),
                        "the server never ran out of descriptors; output:\n" + String.join("\n", server.lines()));
                int before = server.lines().size();
                assertFalse(Conditions.await(() -> server.lines().size() - before > MAX_LINES_WHILE_EXHAUSTED, WATCH),
                        "more than " + MAX_LINES_WHILE_EXHAUSTED + " lines in " + WATCH + " while out of descriptors:\n"
                                + String.join("\n", tail(server.lines(), 40)));
            } finally {
                for (Socket s : idle) {
                    s.close();
                }
            }
            assertTrue(Conditions.await(() -> HttpProbe.served(server.port(), Duration.ofSeconds(2)), Duration.ofSeconds(20)),
                    "a good client was not served after the idle clients left");
            assertTrue(Conditions.await(() -> server.openDescriptors() <= baseline + DESCRIPTOR_SLACK, Duration.ofSeconds(20)),
                    "descriptors: " + server.openDescriptors() + " (expected: at most " + (baseline + DESCRIPTOR_SLACK)
                            + ", the baseline " + baseline + " plus " + DESCRIPTOR_SLACK + ")");
            assertNotEquals(-1, server.terminate(Duration.ofSeconds(20)), () -> "SIGTERM did not stop the server within 20 s; "
                    + "output:\n" + String.join("\n", tail(server.lines(), 40)));
        }
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
            return s;
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    private static List<String> tail(List<String> lines, int n) {
        return lines.subList(Math.max(0, lines.size() - n), lines.size());
    }
}
