package dev.flow.samples.smtp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.samples.launcher.LaunchOptions;
import dev.flow.samples.launcher.SampleServer;
import dev.flow.samples.launcher.SampleTests;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * 1,000 concurrent SMTP sessions of 5 messages each, from {@link SmtpLoadClient} in a process of its own
 * (its 1,000 sockets stay out of the server's JVM), in sync mode (1,000 threads) and continuation mode
 * (2 workers): every message accepted, every session completed, no failure.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SmtpServerConcurrencyTest {

    private static final int SESSIONS = 1_000;
    private static final int MESSAGES = 5;

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation"})
    void aThousandConcurrentSessionsOfFiveMessagesAllSucceed(String mode) throws Exception {
        SampleServer server = SampleServer.start(new SmtpProtocol(), LaunchOptions.parse(new SmtpProtocol().settings(),
                "--port", "0", "--mode", mode, "--max-sessions", "2000"));
        try {
            Process client = new ProcessBuilder(System.getProperty("java.home") + File.separator + "bin" + File.separator
                    + "java", "-Xmx128m", "-cp", System.getProperty("java.class.path"), SmtpLoadClient.class.getName(),
                    String.valueOf(server.address().getPort()), String.valueOf(SESSIONS), String.valueOf(MESSAGES), "120")
                    .redirectErrorStream(true).start();
            boolean ended = client.waitFor(150, TimeUnit.SECONDS);
            if (!ended) {
                client.destroyForcibly();
            }
            String out = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(ended, "the client should end within its own limit: " + out);
            assertEquals(0, client.exitValue(), out);
            assertTrue(out.startsWith("sessions=1000 messages=5000 failures=0 "), out);
            assertTrue(server.awaitIdle(java.time.Duration.ofSeconds(30)), () -> server.sessionStats().toString());
            assertEquals(SESSIONS, server.sessionStats().completed(), () -> server.sessionStats().toString());
        } finally {
            SampleTests.closeAndCheck(server, true);
        }
    }
}
