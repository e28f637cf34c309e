package dev.flow.samples.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.flow.samples.redis.RedisServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A RESP peer that really sends the bulk strings it declares, many of them in one command, makes the
 * server hold every one until the command ends: the per-request bulk limit alone lets one command hold
 * the multibulk count times it. The sample's {@code --max-command-bytes} (default 32 MiB) caps the
 * bulk bytes of one command: past it the peer gets a protocol error naming the size and the limit,
 * its session is closed, and other clients are served.
 */
@Timeout(120)
class RespCommandSizeTest {

    private static final int MIB = 1 << 20;
    /** The sample's default {@code --max-command-bytes}. */
    private static final int DEFAULT_MAX_COMMAND = 32 * MIB;

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation", "continuation-io-threads"})
    void aCommandWhoseBulkStringsExceedTheCommandLimitClosesItsSessionWithAProtocolError(String mode) throws Exception {
        // 256 MiB: the input budget (a quarter) then lets holds take 48 MiB, past the 32 MiB command limit
        // this test reaches; under 128 MiB the budget refuses the command first (RespHeldMemoryTest).
        try (SampleProcess server = SampleProcess.of(RedisServer.class).jvm("-Xmx256m").args(Modes.args(mode)).start();
                Socket peer = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            peer.setSoTimeout(20_000);
            OutputStream out = peer.getOutputStream();
            int bulks = DEFAULT_MAX_COMMAND / MIB;
            out.write(("*" + (bulks + 8) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            byte[] bulk = new byte[MIB];
            for (int i = 0; i < bulks; i++) {
                out.write(("$" + MIB + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(bulk);
                out.write(new byte[] {'\r', '\n'});
            }
            // The header of one more bulk string: the command would then hold more than the limit.
            out.write(("$" + MIB + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertEquals("-ERR Protocol error: command of " + (DEFAULT_MAX_COMMAND + MIB) + " bytes of bulk strings"
                    + " (expected: <= max-command-bytes " + DEFAULT_MAX_COMMAND + ")\r\n", readAll(peer.getInputStream()),
                    "the answer, then the end of the stream");
            assertEquals("+PONG", ping(server.port()), "another client");
            assertNotEquals(-1, server.terminate(Duration.ofSeconds(20)), "SIGTERM did not stop the server");
        }
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        for (int c; (c = in.read()) >= 0; ) {
            got.write(c);
        }
        return got.toString(StandardCharsets.US_ASCII);
    }

    private static String ping(int port) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write("*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
            StringBuilder line = new StringBuilder();
            InputStream in = s.getInputStream();
            for (int c; (c = in.read()) >= 0 && c != '\r'; ) {
                line.append((char) c);
            }
            return line.toString();
        }
    }
}
