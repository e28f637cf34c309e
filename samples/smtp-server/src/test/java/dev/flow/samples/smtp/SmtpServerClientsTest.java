package dev.flow.samples.smtp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.samples.launcher.SampleServer;
import dev.flow.samples.launcher.SampleTests;
import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import org.apache.commons.net.smtp.SMTPClient;
import org.apache.commons.net.smtp.SMTPReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SMTP sample against mail clients no one here wrote: Jakarta Mail (Eclipse Angus) with and without
 * STARTTLS, and Apache Commons Net's {@link SMTPClient}, in sync and continuation mode; messages are
 * written to a directory and compared byte for byte (SHA-256).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SmtpServerClientsTest {

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

    private SampleServer start(String mode, String... more) throws IOException {
        server = SmtpServers.withStartTls(mode, mail, keystore, more);
        return server;
    }

    @AfterEach
    void countersBackToZero() throws InterruptedException {
        if (server != null) {
            SampleTests.closeAndCheck(server, true);
        }
    }

    /** The stored messages' data, in id order. */
    private List<byte[]> stored() throws IOException {
        List<byte[]> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(mail)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".eml")).sorted().toList()) {
                out.add(Files.readAllBytes(p));
            }
        }
        return out;
    }

    private String envelope(int index) throws IOException {
        try (Stream<Path> files = Files.list(mail)) {
            return Files.readString(files.filter(f -> f.toString().endsWith(".envelope")).sorted().toList().get(index));
        }
    }

    private static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    private Session mailSession(boolean startTls) {
        Properties p = new Properties();
        p.put("mail.smtp.host", "127.0.0.1");
        p.put("mail.smtp.port", String.valueOf(server.address().getPort()));
        p.put("mail.smtp.connectiontimeout", "10000");
        p.put("mail.smtp.timeout", "10000");
        p.put("mail.smtp.allow8bitmime", "true");
        if (startTls) {
            p.put("mail.smtp.starttls.enable", "true");
            p.put("mail.smtp.starttls.required", "true");
            p.put("mail.smtp.ssl.socketFactory", trusting.getSocketFactory());
            p.put("mail.smtp.ssl.checkserveridentity", "true");
        }
        return Session.getInstance(p);
    }

    private MimeMessage eightBitMessage(Session session, String subject) throws Exception {
        MimeMessage m = new MimeMessage(session);
        m.setFrom(new InternetAddress("sender@example.org"));
        m.setRecipients(Message.RecipientType.TO, "one@example.org, two@example.org");
        m.setSubject(subject, "UTF-8");
        // CRLF line ends, as Angus puts them on the wire, so that writeTo gives the bytes sent.
        m.setText("Grüße aus Köln — 8-bit body\r\n.a line that starts with a dot\r\n..two dots\r\n.\r\nend\r\n", "UTF-8");
        m.saveChanges();
        return m;
    }

    /** Sends with Angus' transport (not Transport.send, which would renumber the message) and returns what it wrote. */
    private byte[] send(Session session, MimeMessage m) throws Exception {
        try (jakarta.mail.Transport t = session.getTransport("smtp")) {
            t.connect();
            t.sendMessage(m, m.getAllRecipients());
        }
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        m.writeTo(b);
        return b.toByteArray();
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation"})
    void jakartaMailSendsAnEightBitMessageThatIsStoredByteForByte(String mode) throws Exception {
        start(mode);
        Session session = mailSession(false);
        MimeMessage m = eightBitMessage(session, "plain");
        byte[] sent = send(session, m);
        assertEquals("8bit", m.getEncoding(), "the server's 8BITMIME let Angus send 8-bit text as is");
        List<byte[]> stored = stored();
        assertEquals(1, stored.size());
        assertEquals(sha256(sent), sha256(stored.get(0)), new String(stored.get(0), StandardCharsets.UTF_8));
        assertEquals("from <sender@example.org>\nto <one@example.org>\nto <two@example.org>\nplain\n", envelope(0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation"})
    void jakartaMailUpgradesWithStartTlsAndChecksTheCertificate(String mode) throws Exception {
        start(mode);
        Session session = mailSession(true);
        MimeMessage m = eightBitMessage(session, "over TLS");
        byte[] sent = send(session, m);
        assertArrayEquals(sent, stored().get(0));
        assertTrue(envelope(0).endsWith("tls\n"), envelope(0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation"})
    void commonsNetSendsEveryByteValueAndDotStuffedLinesExactly(String mode) throws Exception {
        start(mode);
        // Every byte but CR and LF, in lines of 64; some lines start with a dot (stuffed by the client).
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes("Subject: bytes\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        int col = 0;
        for (int round = 0; round < 4; round++) {
            for (int b = 0; b < 256; b++) {
                if (b == '\r' || b == '\n') {
                    continue;
                }
                body.write(b);
                if (++col == 64) {
                    body.writeBytes(round % 2 == 0 ? "\r\n.".getBytes(StandardCharsets.US_ASCII) : "\r\n".getBytes(StandardCharsets.US_ASCII));
                    col = round % 2 == 0 ? 1 : 0;
                }
            }
        }
        body.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        byte[] expected = body.toByteArray();
        SMTPClient client = new SMTPClient("ISO-8859-1");
        client.setDefaultTimeout(10_000);
        client.connect("127.0.0.1", server.address().getPort());
        try {
            client.setSoTimeout(10_000);
            assertTrue(SMTPReply.isPositiveCompletion(client.getReplyCode()), client.getReplyString());
            assertTrue(client.login("commons-net"), client.getReplyString());
            assertTrue(client.setSender("bytes@example.org"), client.getReplyString());
            assertTrue(client.addRecipient("sink@example.org"), client.getReplyString());
            try (Writer w = client.sendMessageData()) {
                w.write(new String(expected, StandardCharsets.ISO_8859_1));
            }
            assertTrue(client.completePendingCommand(), client.getReplyString());
            assertTrue(client.getReplyString().startsWith("250 2.0.0 OK queued as "), client.getReplyString());
            assertEquals(252, client.vrfy("someone"));
            assertEquals(502, client.expn("list"));
            assertTrue(client.logout(), client.getReplyString());
        } finally {
            client.disconnect();
        }
        assertEquals(sha256(expected), sha256(stored().get(0)));
    }
}
