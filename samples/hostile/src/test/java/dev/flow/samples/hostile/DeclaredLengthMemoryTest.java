package dev.flow.samples.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.samples.http.HttpServer;
import dev.flow.samples.redis.RedisServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Finding 1 of #14: peers that declare a length ({@code Content-Length}, RESP {@code $N}) and never send
 * the bytes must not make the server commit that memory. Each sample runs in a child JVM with a 64 MB
 * heap, in sync mode, in continuation mode and with I/O-thread dispatch; hundreds of such peers stay
 * connected while a good client is served, and SIGTERM still stops the process. Peers that send half
 * of what they declare are held to the server's input budget: some of their sessions are closed with
 * the budget's error, the others wait, nothing runs out of memory.
 */
@Timeout(120)
class DeclaredLengthMemoryTest {

    private static final String HEAP = "-Xmx64m";
    private static final Duration CLIENT_DEADLINE = Duration.ofSeconds(10);
    /** Peers that each declare 1 MiB: together about six times the heap. */
    private static final int HTTP_PEERS = 400;
    /** Peers that each declare 1 MiB and send up to half of it: together three times the heap. */
    private static final int HALF_BODY_PEERS = 400;
    private static final int HALF_BODY = 512 * 1024;
    /** Peers that each declare 16 MiB: together ten times the heap. */
    private static final int RESP_HUGE_PEERS = 40;
    /** Peers that each declare 100,000 bytes: together about 1.5 times the heap. */
    private static final int RESP_ECHO_PEERS = 1000;

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation", "io-threads"})
    void httpHeadsDeclaringBodiesThatNeverArriveLeaveTheHeapAndTheGoodClientAlone(String mode) throws Exception {
        try (SampleProcess server = SampleProcess.of(HttpServer.class).jvm(HEAP).args(modeArgs(mode)).start()) {
            byte[] head = ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1048576\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
            List<Socket> peers = connect(server, HTTP_PEERS, head);
            try {
                awaitServedWhileAttacked(server, () -> httpGet(server));
            } finally {
                closeAll(peers);
            }
            assertEquals("200", httpGet(server), "the good client after the attack");
            assertStoppedCleanly(server);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "io-threads"})
    void httpBodiesStoppedHalfWayAreHeldToTheMemoryBudgetAndTheGoodClientIsServed(String mode) throws Exception {
        try (SampleProcess server = SampleProcess.of(HttpServer.class).jvm(HEAP).args(modeArgs(mode)).start()) {
            byte[] head = ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1048576\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
            List<SocketChannel> peers = new ArrayList<>();
            try {
                ByteBuffer body = ByteBuffer.allocate(HALF_BODY);
                for (int i = 0; i < HALF_BODY_PEERS; i++) {
                    SocketChannel c = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()));
                    peers.add(c);
                    c.write(ByteBuffer.wrap(head));
                    c.configureBlocking(false);
                    c.write(body.clear()); // as much of the half body as the connection takes without waiting
                }
                awaitServedWhileAttacked(server, () -> httpGet(server));
                assertTrue(server.awaitLine(l -> l.contains("input budget exhausted: readFully(1048576)"),
                        Duration.ofSeconds(10)) != null, "no session was held to the budget; output: " + server.lines());
            } finally {
                for (SocketChannel c : peers) {
                    c.close();
                }
            }
            assertEquals("200", httpGet(server), "the good client after the attack");
            assertStoppedCleanly(server);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation", "io-threads"})
    void respBulkLengthsThatNeverArriveLeaveTheHeapAndTheGoodClientAlone(String mode) throws Exception {
        try (SampleProcess server = SampleProcess.of(RedisServer.class).jvm(HEAP).args(modeArgs(mode)).start()) {
            List<Socket> peers = connect(server, RESP_HUGE_PEERS, "*1\r\n$16777216\r\n".getBytes(StandardCharsets.US_ASCII));
            try {
                peers.addAll(connect(server, RESP_ECHO_PEERS,
                        "*2\r\n$4\r\nECHO\r\n$100000\r\n".getBytes(StandardCharsets.US_ASCII)));
                awaitServedWhileAttacked(server, () -> respPing(server));
            } finally {
                closeAll(peers);
            }
            assertEquals("+PONG", respPing(server), "the good client after the attack");
            assertStoppedCleanly(server);
        }
    }

    private static String[] modeArgs(String mode) {
        switch (mode) {
            case "sync":
                return new String[] {"--mode", "sync"};
            case "continuation":
                return new String[] {"--mode", "continuation", "--workers", "2"};
            default:
                return new String[] {"--mode", "continuation", "--workers", "2", "--dispatch", "io-threads"};
        }
    }

    /** A client call that returns the status of one request, or throws. */
    private interface Call {
        String call() throws IOException;
    }

    /**
     * With every peer connected and its declaration sent, the good client gets every answer, each
     * within its deadline, for two seconds (at least three requests), and the server prints no {@code
     * OutOfMemoryError}.
     */
    private static void awaitServedWhileAttacked(SampleProcess server, Call good) throws IOException {
        long end = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        for (int i = 0; i < 3 || System.nanoTime() - end < 0; i++) {
            String status = good.call();
            assertTrue(status.equals("200") || status.equals("+PONG"), "the good client during the attack got " + status);
        }
        assertEquals(List.of(), outOfMemoryLines(server), "while attacked");
    }

    private static List<Socket> connect(SampleProcess server, int n, byte[] declaration) throws IOException {
        List<Socket> peers = new ArrayList<>(n);
        try {
            for (int i = 0; i < n; i++) {
                Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port());
                peers.add(s);
                OutputStream out = s.getOutputStream();
                out.write(declaration);
                out.flush();
            }
        } catch (IOException | RuntimeException e) {
            closeAll(peers);
            throw e;
        }
        return peers;
    }

    private static void closeAll(List<Socket> peers) {
        for (Socket s : peers) {
            try {
                s.close();
            } catch (IOException e) {
                // Closing an attacker's socket can only fail if it is gone already.
            }
        }
    }

    /** Sends {@code GET /} and returns the status code of the answer. */
    private static String httpGet(SampleProcess server) throws IOException {
        String answer = exchange(server, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 "), "answer: " + answer);
        return answer.substring(9, 12);
    }

    /** Sends {@code PING} and returns the first line of the answer. */
    private static String respPing(SampleProcess server) throws IOException {
        String answer = exchange(server, "*1\r\n$4\r\nPING\r\n");
        int end = answer.indexOf('\r');
        return end < 0 ? answer : answer.substring(0, end);
    }

    /** Sends {@code request} on a new connection and reads the first line of the answer within the deadline. */
    private static String exchange(SampleProcess server, String request) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            s.setSoTimeout((int) CLIENT_DEADLINE.toMillis());
            s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c; (c = in.read()) >= 0 && c != '\n'; ) {
                line.append((char) c);
            }
            return line.toString();
        }
    }

    private static List<String> outOfMemoryLines(SampleProcess server) {
        List<String> out = new ArrayList<>();
        for (String l : server.lines()) {
            if (l.contains("OutOfMemoryError")) {
                out.add(l);
            }
        }
        return out;
    }

    private static void assertStoppedCleanly(SampleProcess server) throws InterruptedException {
        int status = server.terminate(Duration.ofSeconds(20));
        assertNotEquals(-1, status, "the process did not stop within 20 s of SIGTERM; output: " + server.lines());
        assertEquals(List.of(), outOfMemoryLines(server), "after the attack");
    }
}
