package dev.flow.samples.smtp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.samples.launcher.SampleCommandLine;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The command line: the listening line, STARTTLS offered with a key store, SIGTERM (exit 0), --help, exit 2 on a bad option. */
@Timeout(60)
class SmtpServerCommandLineTest {

    private static Process launch(String... args) throws IOException {
        return SampleCommandLine.launch(SmtpServer.class, args);
    }

    @Test
    void printsTheListeningLineOffersStartTlsAndStopsCleanlyOnSigterm(@TempDir Path dir) throws Exception {
        Path keystore = TestKeystore.create(dir);
        Process p = launch("--port", "0", "--mode", "continuation", "--workers", "1", "--keystore", keystore.toString(),
                "--keystore-password", TestKeystore.PASSWORD);
        try {
            offersStartTlsAndStopsCleanlyOnSigterm(p);
        } finally {
            // a server left by a failed check would run on after the suite
            p.destroyForcibly();
        }
    }

    private static void offersStartTlsAndStopsCleanlyOnSigterm(Process p) throws Exception {
        int port = SampleCommandLine.listeningPort(p);
        try (Socket s = new Socket("127.0.0.1", port)) {
            // The greeting comes from the first session's handler, which instruments it: seconds on a loaded machine.
            s.setSoTimeout(30_000);
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
            assertTrue(in.readLine().startsWith("220 localhost ESMTP"));
            s.getOutputStream().write("EHLO cli\r\nQUIT\r\n".getBytes(StandardCharsets.US_ASCII));
            List<String> replies = new ArrayList<>();
            String line;
            while ((line = in.readLine()) != null) {
                replies.add(line);
            }
            assertTrue(replies.contains("250-STARTTLS"), replies.toString());
            assertTrue(replies.get(replies.size() - 1).startsWith("221 "), replies.toString());
        }
        SampleCommandLine.stopsCleanlyOnSigterm(p);
    }

    @Test
    void helpListsEveryOptionAndExitsZero() throws Exception {
        Process p = launch("--help");
        String text = SampleCommandLine.outputOnceEnded(p);
        assertEquals(0, p.exitValue(), text);
        for (String option : List.of("--port", "--mode", "--workers", "--keystore", "--keystore-password",
                "--max-recipients", "--max-message-bytes", "--max-line-bytes", "--command-timeout-ms", "--data-timeout-ms",
                "--store-dir", "--request-timeout-ms")) {
            assertTrue(text.contains(option), () -> option + " missing from:\n" + text);
        }
    }

    @Test
    void aBadOptionExitsTwoNamingIt() throws Exception {
        Process p = launch("--port", "0", "--keystore", "/no/such/file.p12");
        String text = SampleCommandLine.outputOnceEnded(p);
        assertEquals(2, p.exitValue(), text);
        assertTrue(text.contains("--keystore: /no/such/file.p12 (expected: a readable key store file)"), text);
        Process q = launch("--max-recipients", "0");
        String text2 = SampleCommandLine.outputOnceEnded(q);
        assertEquals(2, q.exitValue(), text2);
        assertTrue(text2.contains("--max-recipients"), text2);
    }
}
