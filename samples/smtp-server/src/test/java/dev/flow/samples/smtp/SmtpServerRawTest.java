package dev.flow.samples.smtp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.samples.launcher.SampleServer;
import dev.flow.samples.launcher.SampleTests;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SMTP sample over raw sockets, in sync and continuation mode: pipelining, the STARTTLS injection,
 * and hostile sessions (a bare LF, a 100 KB line, DATA without its end, a disconnect inside DATA, 10,000
 * pipelined RCPT) — each answered or closed, while a well-behaved session beside it is served.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SmtpServerRawTest {

    @TempDir
    static Path keys;
    private static Path keystore;
    private static SSLContext trusting;

    @TempDir
    Path mail;
    private SampleServer server;

    @BeforeAll
    static void makeKeystore() throws Exception {
        keystore = TestKeystore.create(keys);
        trusting = TestKeystore.trusting(keystore);
    }

    private void start(String mode, String... more) throws IOException {
        server = SmtpServers.withStartTls(mode, mail, keystore, more);
    }

    /** As {@link SampleTests#closeAndCheck}, except that sessions failed by a peer's protocol error are expected. */
    @AfterEach
    void countersBackToZero() throws InterruptedException {
        if (server == null) {
            return;
        }
        try {
            assertTrue(server.awaitIdle(Duration.ofSeconds(30)), () -> "not idle: " + server.sessionStats());
        } finally {
            server.close();
        }
        server.flowStats().ifPresent(s -> assertTrue(s.isIdle(), () -> "not idle: " + s));
        assertEquals(0, server.openSessions());
        assertEquals(0, server.sessionStats().running());
        assertEquals(server.sessionStats().protocolErrors(), server.sessionStats().failed(),
                () -> "only protocol errors failed: " + server.sessionStats());
    }

    /** A raw SMTP connection: writes bytes, reads replies (a multi-line reply as one string). */
    private final class Raw implements AutoCloseable {
        Socket socket;
        InputStream in;
        OutputStream out;

        Raw() throws IOException {
            socket = new Socket("127.0.0.1", server.address().getPort());
            socket.setSoTimeout(20_000);
            // Buffered: the server sends nothing after the STARTTLS go-ahead, so upgrade() loses no byte.
            in = new java.io.BufferedInputStream(socket.getInputStream());
            out = socket.getOutputStream();
            assertTrue(reply().startsWith("220 "), "greeting");
        }

        void send(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }

        /** The next reply's lines joined by "\n", or null at end of stream. */
        String reply() throws IOException {
            StringBuilder all = new StringBuilder();
            for (;;) {
                String line = line(in);
                if (line == null) {
                    return all.length() == 0 ? null : all.toString();
                }
                all.append(all.length() == 0 ? "" : "\n").append(line);
                if (line.length() < 4 || line.charAt(3) != '-') {
                    return all.toString();
                }
            }
        }

        SSLSocket upgrade() throws IOException {
            SSLSocket s = (SSLSocket) trusting.getSocketFactory().createSocket(socket, "localhost", socket.getPort(), true);
            SSLParameters p = s.getSSLParameters();
            p.setEndpointIdentificationAlgorithm("HTTPS");
            s.setSSLParameters(p);
            s.startHandshake();
            socket = s;
            in = s.getInputStream();
            out = s.getOutputStream();
            return s;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != '\n') {
            if (c < 0) {
                return b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
            }
            b.write(c);
        }
        String s = b.toString(StandardCharsets.ISO_8859_1);
        assertTrue(s.endsWith("\r"), () -> "a reply line ends with CRLF: " + s);
        return s.substring(0, s.length() - 1);
    }

    /** Reads until the server closes; a reset counts as closed. */
    private static void assertClosed(Raw r) {
        try {
            assertNull(r.reply(), "the server closed the connection");
        } catch (IOException reset) {
            // closed with a reset: also closed
        }
    }

    /** A whole, well-behaved transaction on a connection of its own. */
    private void goodSession(String tag) throws IOException {
        try (Raw r = new Raw()) {
            r.send("EHLO good\r\n");
            assertTrue(r.reply().startsWith("250-"));
            r.send("MAIL FROM:<good@example.org>\r\n");
            assertEquals("250 2.1.0 OK", r.reply());
            r.send("RCPT TO:<sink@example.org>\r\n");
            assertEquals("250 2.1.5 OK", r.reply());
            r.send("DATA\r\n");
            assertTrue(r.reply().startsWith("354 "));
            r.send("Subject: " + tag + "\r\n\r\nfine\r\n.\r\n");
            assertTrue(r.reply().startsWith("250 2.0.0 OK queued as "));
            r.send("QUIT\r\n");
            assertTrue(r.reply().startsWith("221 "));
        }
    }

    private List<String> stored() throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(mail)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".eml")).sorted().toList()) {
                out.add(Files.readString(p, StandardCharsets.ISO_8859_1));
            }
        }
        return out;
    }

    private void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadline < 0, () -> "timed out waiting for " + what + ": " + server.sessionStats());
            Thread.sleep(5);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation"})
    void pipelinedCommandsAreAnsweredInOrder(String mode) throws Exception {
        start(mode);
        try (Raw r = new Raw()) {
            r.send("EHLO pipe\r\nMAIL FROM:<a@example.org> SIZE=40 BODY=8BITMIME\r\nRCPT TO:<b@example.org>\r\n"
                    + "RCPT TO:<c@example.org>\r\nDATA\r\n");
            String ehlo = r.reply();
            assertTrue(ehlo.contains("250-PIPELINING") && ehlo.contains("250-STARTTLS") && ehlo.contains("250-SIZE 10485760")
                    && ehlo.endsWith("250 8BITMIME"), ehlo);
            assertEquals("250 2.1.0 OK", r.reply());
            assertEquals("250 2.1.5 OK", r.reply());
            assertEquals("250 2.1.5 OK", r.reply());
            assertTrue(r.reply().startsWith("354 "));
            r.send("Subject: p\r\n\r\n..dot\r\n.\r\nRSET\r\nNOOP\r\nVRFY x\r\nMAIL FROM:<big@example.org> SIZE=99999999\r\nQUIT\r\n");
            assertTrue(r.reply().startsWith("250 2.0.0 OK queued as "));
            assertEquals("250 2.0.0 OK", r.reply());
            assertEquals("250 2.0.0 OK", r.reply());
            assertTrue(r.reply().startsWith("252 "));
            assertEquals("552 5.3.4 Message size exceeds fixed maximum message size (10485760)", r.reply());
            assertTrue(r.reply().startsWith("221 "));
            assertClosed(r);
        }
        assertEquals(List.of("Subject: p\r\n\r\n.dot\r\n"), stored());
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation"})
    void plainTextPipelinedAfterStartTlsIsDiscarded(String mode) throws Exception {
        start(mode);
        try (Raw r = new Raw()) {
            r.send("EHLO tls\r\n");
            r.reply();
            // CVE-2011-0411: a command injected after STARTTLS, in the same packet.
            r.send("STARTTLS\r\nMAIL FROM:<injected@example.org>\r\n");
            assertEquals("220 2.0.0 Ready to start TLS", r.reply());
            r.upgrade();
            r.send("EHLO tls\r\n");
            String ehlo = r.reply();
            assertTrue(!ehlo.contains("STARTTLS"), ehlo);
            r.send("RCPT TO:<b@example.org>\r\n");
            assertEquals("503 5.5.1 Send MAIL first", r.reply(), "the injected MAIL never ran");
            r.send("QUIT\r\n");
            assertTrue(r.reply().startsWith("221 "));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation"})
    void aBareLfIsAnsweredAtOnceAndTheSessionEnds(String mode) throws Exception {
        start(mode);
        try (Raw bad = new Raw()) {
            bad.send("EHLO lf\n");
            assertEquals("500 5.5.2 Bare LF received (expected: CRLF line ends)", bad.reply());
            assertClosed(bad);
            goodSession("beside a bare LF");
        }
        await("the bare LF counted as a protocol error", () -> server.sessionStats().protocolErrors() == 1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation"})
    void aHundredKilobyteLineIsAnsweredOrClosedAndOthersGoOn(String mode) throws Exception {
        start(mode);
        try (Raw bad = new Raw()) {
            CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
                try {
                    bad.send("EHLO " + "a".repeat(100 * 1024) + "\r\n");
                } catch (IOException closedWhileWriting) {
                    // The server may close before it has read the whole line.
                }
            });
            try {
                String reply = bad.reply();
                assertTrue(reply == null || reply.startsWith("500 5.5.6 Line too long"), reply);
            } catch (IOException reset) {
                // closed with unread input: a reset
            }
            writing.get(20, TimeUnit.SECONDS);
            goodSession("beside a long line");
        }
        await("the long line counted as a protocol error", () -> server.sessionStats().protocolErrors() == 1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation"})
    void dataWithoutItsEndTimesOutWithA421(String mode) throws Exception {
        start(mode, "--data-timeout-ms", "500");
        try (Raw bad = new Raw()) {
            bad.send("EHLO slow\r\nMAIL FROM:<a@example.org>\r\nRCPT TO:<b@example.org>\r\nDATA\r\n");
            bad.reply();
            bad.reply();
            bad.reply();
            assertTrue(bad.reply().startsWith("354 "));
            bad.send("Subject: never ends\r\n\r\npartial\r\n");
            goodSession("beside a stalled DATA");
            assertEquals("421 4.4.2 localhost timeout, closing connection", bad.reply());
            assertClosed(bad);
        }
        await("the stalled DATA counted as timed out", () -> server.sessionStats().timedOut() == 1);
        assertEquals(1, stored().size(), "only the good session's message");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation"})
    void aDisconnectInsideDataStoresNothing(String mode) throws Exception {
        start(mode);
        try (Raw bad = new Raw()) {
            bad.send("EHLO gone\r\nMAIL FROM:<a@example.org>\r\nRCPT TO:<b@example.org>\r\nDATA\r\n");
            for (int i = 0; i < 4; i++) {
                bad.reply();
            }
            bad.send("Subject: cut\r\n\r\nhalf a mess");
        }
        await("the cut session counted as closed by the peer", () -> server.sessionStats().closedByPeer() == 1);
        goodSession("after a cut DATA");
        assertEquals(1, stored().size(), "only the good session's message");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation"})
    void tenThousandPipelinedRecipientsAreAllAnsweredAndCappedAtTheLimit(String mode) throws Exception {
        start(mode);
        try (Raw r = new Raw()) {
            StringBuilder batch = new StringBuilder("EHLO many\r\nMAIL FROM:<a@example.org>\r\n");
            for (int i = 0; i < 10_000; i++) {
                batch.append("RCPT TO:<r").append(i).append("@example.org>\r\n");
            }
            batch.append("DATA\r\n");
            // Written while the replies are read: neither side may wait for the other to read.
            CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
                try {
                    r.send(batch.toString());
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            r.reply();
            assertEquals("250 2.1.0 OK", r.reply());
            int accepted = 0;
            int refused = 0;
            for (int i = 0; i < 10_000; i++) {
                String reply = r.reply();
                if (reply.equals("250 2.1.5 OK")) {
                    accepted++;
                } else {
                    assertEquals("452 4.5.3 Too many recipients (expected: at most 100)", reply);
                    refused++;
                }
            }
            writing.get(20, TimeUnit.SECONDS);
            assertEquals(100, accepted);
            assertEquals(9_900, refused);
            assertTrue(r.reply().startsWith("354 "));
            r.send("Subject: many\r\n\r\nhi\r\n.\r\nQUIT\r\n");
            assertTrue(r.reply().startsWith("250 2.0.0 OK queued as "));
            assertTrue(r.reply().startsWith("221 "));
        }
        try (Stream<Path> files = Files.list(mail)) {
            Path envelope = files.filter(f -> f.toString().endsWith(".envelope")).findFirst().orElseThrow();
            assertEquals(101 + 1, Files.readAllLines(envelope).size(), "from, 100 recipients, plain");
        }
    }
}
