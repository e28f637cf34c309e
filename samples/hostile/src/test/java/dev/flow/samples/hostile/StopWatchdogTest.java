package dev.flow.samples.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * SIGTERM always ends a sample: when a stop overruns its grace period by {@code --stop-limit} (default
 * 60 s; here 500 ms), because a session ignores the stop, the watchdog halts the JVM with status 1.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StopWatchdogTest {

    @Test
    void aStopThatOverrunsItsGraceByTheStopLimitHaltsTheJvmWithStatusOne() throws Exception {
        try (SampleProcess server = SampleProcess.of(StubbornServer.class).jvm("-Xmx64m")
                .args("--mode", "sync", "--grace", "200ms", "--stop-limit", "500ms").start();
                Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            s.setSoTimeout(10_000);
            assertEquals("busy", new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine(), "the session started");
            long t0 = System.nanoTime();
            int status = server.terminate(Duration.ofSeconds(20));
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertEquals(1, status, "exit status; output: " + server.lines());
            assertTrue(ms >= 600 && ms < 10_000, "halted after " + ms + " ms (grace 200 ms + stop limit 500 ms)");
            assertNotNull(server.awaitLine(l -> l.equals("error: stubborn did not stop within 700 ms; halting"),
                    Duration.ofSeconds(1)), "the watchdog's line; output: " + server.lines());
        }
    }
}
