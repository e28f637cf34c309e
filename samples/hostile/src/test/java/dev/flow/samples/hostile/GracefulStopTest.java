package dev.flow.samples.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.samples.http.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Finding 5 of #14: SIGTERM with requests in flight answered none of them. Now the HTTP sample stops
 * gracefully: 200 requests {@code GET /sleep?ms=1000}, each read by the server, then SIGTERM; every
 * client gets its 200 answer, and the process exits 0 within the grace period. In sync mode and in
 * continuation mode with both dispatches.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class GracefulStopTest {

    private static final int IN_FLIGHT = 200;
    private static final Duration GRACE = Duration.ofSeconds(10);
    private static final String REQUEST = "GET /sleep?ms=1000 HTTP/1.1\r\nHost: flow\r\n\r\n";
    private static final String ANSWER = "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: 14\r\n\r\nslept 1000 ms\n";

    @ParameterizedTest
    @ValueSource(strings = {"--mode sync", "--mode continuation --workers 2",
        "--mode continuation --workers 2 --dispatch io-threads"})
    void sigtermAnswersEveryRequestInFlightAndExitsZero(String mode) throws Exception {
        List<Socket> clients = new ArrayList<>();
        try (SampleProcess server = SampleProcess.of(HttpServer.class).jvm("-Xmx128m")
                .args(mode.split(" ")).args("--grace", GRACE.toSeconds() + "s").start()) {
            try {
                for (int i = 0; i < IN_FLIGHT; i++) {
                    Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port());
                    clients.add(s);
                    s.setSoTimeout(20_000);
                    s.getOutputStream().write(REQUEST.getBytes(StandardCharsets.US_ASCII));
                }
                assertTrue(Conditions.await(() -> readByServer(server.port()) == IN_FLIGHT, Duration.ofSeconds(20)),
                        "every request read by the server: " + readByServer(server.port()) + " of " + IN_FLIGHT);

                long t0 = System.nanoTime();
                int exit = server.terminate(GRACE.plusSeconds(10));
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

                assertEquals(0, exit, "exit code after a clean stop; output:\n" + String.join("\n", server.lines()));
                assertTrue(ms < GRACE.toMillis(), "stopped after " + ms + " ms (grace " + GRACE.toMillis() + " ms)");
                int answered = 0;
                for (Socket s : clients) {
                    if (readAll(s.getInputStream()).equals(ANSWER)) {
                        answered++;
                    }
                }
                assertEquals(IN_FLIGHT, answered, "clients that got their 200 answer, then the end of the stream");
            } finally {
                for (Socket s : clients) {
                    s.close();
                }
            }
        }
    }

    /** Reads until the server closes the connection. */
    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        in.transferTo(b);
        return b.toString(StandardCharsets.US_ASCII);
    }

    /**
     * The connections to {@code port} on 127.0.0.1 whose input the server process has read from the
     * kernel (Linux {@code /proc/net/tcp} and {@code tcp6}, where Java's dual-stack sockets show:
     * established, server side, receive queue empty).
     */
    private static long readByServer(int port) {
        String local = String.format(Locale.ROOT, "0100007F:%04X", port);
        long n = 0;
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            try {
                n += Files.readAllLines(Path.of(table)).stream().skip(1)
                        .map(l -> l.trim().split("\\s+"))
                        .filter(f -> f[1].endsWith(local) && f[3].equals("01") && f[4].endsWith(":00000000"))
                        .count();
            } catch (IOException e) {
                throw new IllegalStateException("cannot read " + table, e);
            }
        }
        return n;
    }
}
