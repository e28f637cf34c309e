package dev.flow.samples.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.samples.http.HttpServer;
import dev.flow.samples.redis.RedisServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Finding 4 of #14: a peer trickling its request one byte at a time was never cut off (HTTP's idle
 * timeout restarts on every byte; the Redis sample had no timeout). Now both samples bound a request
 * with {@code --request-timeout-ms}: peers sending one byte every 500 ms are cut off within the
 * configured 2 s (plus a little for the scheduling of a loaded machine), while a good client is served
 * meanwhile; an idle Redis connection is closed after {@code --idle-timeout-ms}. Sync and continuation.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SlowPeerTest {

    private static final int TRICKLERS = 20;
    private static final long REQUEST_TIMEOUT_MS = 2_000;
    private static final long TRICKLE_MS = 500;
    /**
     * How much longer than the deadline a peer may be seen still open after its first byte: the scheduling of
     * the server on a loaded machine (two test JVMs on two cores). Far below never: without a request
     * deadline the peers stay open until their request is complete. The test's own delay in seeing a cut-off
     * (it looks only when it next trickles, and its thread may stall) is not in the measure.
     */
    private static final long SLACK_MS = 4_000;

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation"})
    void httpPeersTricklingARequestAreCutOffAtTheRequestTimeout(String mode) throws Exception {
        String request = "GET / HTTP/1.1\r\nHost: flow\r\nX-Slow: " + "z".repeat(40) + "\r\n\r\n";
        try (SampleProcess server = start(HttpServer.class, mode)) {
            assertCutOffInTime(trickle(server, request, "GET / HTTP/1.1\r\nHost: flow\r\nConnection: close\r\n\r\n",
                    "HTTP/1.1 200 OK"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation"})
    void redisPeersTricklingACommandAreCutOffAtTheRequestTimeout(String mode) throws Exception {
        String command = "*3\r\n$3\r\nSET\r\n$4\r\nslow\r\n$20\r\n" + "v".repeat(20) + "\r\n";
        try (SampleProcess server = start(RedisServer.class, mode)) {
            assertCutOffInTime(trickle(server, command, "PING\r\n", "+PONG"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation"})
    void anIdleRedisConnectionIsClosedAfterTheIdleTimeout(String mode) throws Exception {
        try (SampleProcess server = SampleProcess.of(RedisServer.class).jvm("-Xmx64m")
                .args("--mode", mode, "--idle-timeout-ms", "1000").start()) {
            // The server's idle clock starts when it accepts the connection: after this, before (or as) the
            // connect returns. The connection cannot have been idle for longer than since this moment (a lower
            // bound that no stall of this thread after the connect breaks), and the close must come within a
            // few seconds of the connect.
            long t0 = System.nanoTime();
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
                s.setSoTimeout(10_000);
                long connected = System.nanoTime();
                assertEquals(-1, s.getInputStream().read(), "the server closes the idle connection");
                long closed = System.nanoTime();
                long sinceConnecting = TimeUnit.NANOSECONDS.toMillis(closed - t0);
                long sinceConnected = TimeUnit.NANOSECONDS.toMillis(closed - connected);
                assertTrue(sinceConnecting >= 900 && sinceConnected < 5_000, "closed " + sinceConnecting + " ms after the "
                        + "connect began, " + sinceConnected + " ms after it returned (idle timeout 1000 ms, whole seconds)");
            }
        }
    }

    private static SampleProcess start(Class<?> main, String mode) throws IOException {
        return SampleProcess.of(main).jvm("-Xmx64m")
                .args("--mode", mode, "--request-timeout-ms", Long.toString(REQUEST_TIMEOUT_MS)).start();
    }

    /**
     * What the test saw of one trickling peer, in ms from just before its first byte was sent (the server's
     * request clock starts after that): the last time it was seen open, and the time it was seen cut off (-1:
     * never). The server cut it off between the two.
     */
    record Seen(long openMs, long cutMs) {
        @Override
        public String toString() {
            return "open at " + openMs + " ms, cut at " + cutMs + " ms";
        }
    }

    /**
     * Opens {@link #TRICKLERS} connections and sends {@code request} on each, one byte every {@link
     * #TRICKLE_MS}, until the server answers or closes; meanwhile a good client sends {@code good} and
     * expects {@code goodAnswer}. Returns what was seen of each connection.
     */
    private static List<Seen> trickle(SampleProcess server, String request, String good, String goodAnswer)
            throws Exception {
        byte[] bytes = request.getBytes(StandardCharsets.US_ASCII);
        // The first request a server answers loads (and in continuation mode instruments) its handler: on a
        // loaded machine that took seconds, which the trickling loop must not wait for.
        assertEquals(goodAnswer, askOnce(server, good), "a good client is served before");
        List<Socket> peers = new ArrayList<>();
        long[] firstSent = new long[TRICKLERS];
        long[] lastOpen = new long[TRICKLERS];
        long[] cut = new long[TRICKLERS];
        int left = TRICKLERS;
        CompletableFuture<String> meanwhile = null;
        try {
            for (int i = 0; i < TRICKLERS; i++) {
                Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port());
                s.setSoTimeout(1);
                peers.add(s);
            }
            long t0 = System.nanoTime();
            long giveUp = t0 + TimeUnit.MILLISECONDS.toNanos(REQUEST_TIMEOUT_MS + SLACK_MS * 2);
            for (int sent = 0; sent < bytes.length && left > 0 && System.nanoTime() - giveUp < 0; sent++) {
                for (int i = 0; i < peers.size(); i++) {
                    if (cut[i] != 0) {
                        continue;
                    }
                    // Before the look: the peer is open at least until then if the look finds it open.
                    long looked = System.nanoTime();
                    if (sent == 0) {
                        firstSent[i] = looked;
                    }
                    if (sendOrSeeCutOff(peers.get(i), bytes[sent])) {
                        cut[i] = System.nanoTime();
                        left--;
                    } else {
                        lastOpen[i] = looked;
                    }
                }
                if (sent == 1) {
                    meanwhile = CompletableFuture.supplyAsync(() -> askQuietly(server, good));
                }
                paceUntil(t0 + TimeUnit.MILLISECONDS.toNanos(TRICKLE_MS * (sent + 1)));
            }
        } finally {
            for (Socket s : peers) {
                s.close();
            }
        }
        assertTrue(meanwhile != null, "the trickle lasted two periods");
        assertEquals(goodAnswer, meanwhile.get(30, TimeUnit.SECONDS), "a good client is served meanwhile");
        List<Seen> seen = new ArrayList<>();
        for (int i = 0; i < TRICKLERS; i++) {
            seen.add(new Seen(TimeUnit.NANOSECONDS.toMillis(lastOpen[i] - firstSent[i]),
                    cut[i] == 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(cut[i] - firstSent[i])));
        }
        return seen;
    }

    /** The trickling peer's pace: returns at {@code nanoTime}. */
    private static void paceUntil(long nanoTime) {
        for (long left; (left = nanoTime - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(left);
        }
    }

    /** Sends one byte; returns whether the server has answered or closed the connection instead. */
    private static boolean sendOrSeeCutOff(Socket s, byte b) {
        try {
            InputStream in = s.getInputStream();
            try {
                in.read(); // an answer (HTTP: 408) or the end of the stream
                return true;
            } catch (SocketTimeoutException nothingYet) {
                // still open and silent: go on trickling
            }
            s.getOutputStream().write(b);
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    private static String askQuietly(SampleProcess server, String request) {
        try {
            return askOnce(server, request);
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static String askOnce(SampleProcess server, String request) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            // The first request instruments the handler: seconds on a loaded machine.
            s.setSoTimeout(30_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c; (c = in.read()) >= 0 && c != '\r'; ) {
                line.append((char) c);
            }
            return line.toString();
        }
    }

    /**
     * Every peer was cut off, not before the request timeout (seen cut at least that long after its first
     * byte left), and not much after it (seen open at most {@link #SLACK_MS} past it).
     */
    private static void assertCutOffInTime(List<Seen> seen) {
        for (Seen p : seen) {
            assertTrue(p.cutMs() >= REQUEST_TIMEOUT_MS - 100 && p.openMs() <= REQUEST_TIMEOUT_MS + SLACK_MS,
                    "a peer " + p + " after its first byte (request timeout " + REQUEST_TIMEOUT_MS + " ms; cut at -1: never): "
                            + seen);
        }
    }
}
