package dev.flow.samples.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.samples.redis.RedisServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many peers that each send a large bulk string of a command they do not finish make the server hold
 * every one until the command ends: each is within the per-command limit ({@code --max-command-bytes}),
 * together they are more than the heap. The Redis sample holds a command's bulk strings against the
 * server's input budget ({@code Transport.holdReads()}): once the budget's share for holds is taken, the
 * next peer's read fails with an error naming the total and the limit and only its session ends; the
 * held commands complete, other clients are served, and nothing runs out of memory.
 */
@Timeout(180)
class RespHeldMemoryTest {

    private static final int MIB = 1 << 20;
    /** The server's heap: its input budget is a quarter (32 MiB), holds may take three quarters of that. */
    private static final String HEAP = "-Xmx128m";
    /** One peer's bulk string: under the sample's 16 MiB bulk and 32 MiB command limits. */
    private static final int VALUE = 8 * MIB;
    /** Peers: together 1.5 times the heap. */
    private static final int PEERS = 24;
    /** The most commands of {@link #VALUE} bytes that three quarters of the 32 MiB budget can hold. */
    private static final int MOST_HELD = 24 * MIB / VALUE;

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation", "continuation-io-threads"})
    void commandsHeldByManyPeersAreBoundedByTheInputBudgetAndOthersAreServed(String mode) throws Exception {
        try (SampleProcess server = SampleProcess.of(RedisServer.class).jvm(HEAP).args(Modes.args(mode)).start()) {
            List<Socket> peers = new ArrayList<>();
            int held = 0;
            try {
                byte[] value = new byte[VALUE];
                for (int i = 0; i < PEERS; i++) {
                    Socket peer = new Socket(InetAddress.getLoopbackAddress(), server.port());
                    peers.add(peer);
                    peer.setSoTimeout(20_000);
                    // SET k <value> EX 100, stopped before EX: the server holds the value, waiting for the rest.
                    send(peer, ("*5\r\n$3\r\nSET\r\n$1\r\nk\r\n$" + VALUE + "\r\n").getBytes(StandardCharsets.US_ASCII),
                            value, new byte[] {'\r', '\n'});
                }
                String refusal = server.awaitLine(l -> l.contains("input budget exhausted"), Duration.ofSeconds(30));
                assertNotNull(refusal, "a line naming the refused read; output: " + server.lines());
                assertTrue(refusal.contains("bytes in use") && refusal.contains("expected: at most"), refusal);
                for (Socket peer : peers) {
                    if (send(peer, "$2\r\nEX\r\n$3\r\n100\r\n".getBytes(StandardCharsets.US_ASCII))
                            && "+OK".equals(firstLine(peer))) {
                        held++;
                    }
                }
            } finally {
                for (Socket peer : peers) {
                    peer.close();
                }
            }
            assertTrue(held >= 1 && held <= MOST_HELD, "commands held and completed: " + held + " (expected: 1.." + MOST_HELD + ")");
            assertEquals("+PONG", ping(server.port()), "another client");
            int status = server.terminate(Duration.ofSeconds(20));
            assertNotEquals(-1, status, "the process did not stop within 20 s of SIGTERM");
            assertEquals(0, server.count(l -> l.contains("OutOfMemoryError")), "lines naming OutOfMemoryError: " + server.lines());
        }
    }

    /** Writes {@code parts}; returns {@code false} if the server has closed the connection. */
    private static boolean send(Socket peer, byte[]... parts) {
        try {
            OutputStream out = peer.getOutputStream();
            for (byte[] p : parts) {
                out.write(p);
            }
            out.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The first line of the answer, or {@code null} if the connection ends or fails first. */
    private static String firstLine(Socket peer) {
        try {
            InputStream in = peer.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c; (c = in.read()) >= 0; ) {
                if (c == '\r') {
                    return line.toString();
                }
                line.append((char) c);
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }

    private static String ping(int port) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write("*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
            return firstLine(s);
        }
    }
}
