package dev.flow.samples.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A sample server's command line run as an operator runs it, for the samples' command-line tests: a
 * child JVM of the sample's main class on this test's class path, its output (standard output and
 * error, merged) read by the test. Stateless; the caller owns (and destroys) each process.
 */
public final class SampleCommandLine {

    private static final String LISTENING = "listening on 127.0.0.1:";

    private SampleCommandLine() {
    }

    /** Starts {@code java -cp <this class path> <mainClass> <args>}. */
    public static Process launch(Class<?> mainClass, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(System.getProperty("java.home") + File.separator + "bin" + File.separator
                + "java", "-cp", System.getProperty("java.class.path"), mainClass.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    /** Waits up to 30 s for {@code p} to end and returns its output; kills it if it did not end. */
    public static String outputOnceEnded(Process p) throws Exception {
        try {
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the process should end");
            return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            p.destroyForcibly();
        }
    }

    /** Reads {@code p}'s output up to its {@code "listening on 127.0.0.1:<port>"} line and returns the port. */
    public static int listeningPort(Process p) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith(LISTENING)) {
                return Integer.parseInt(line.substring(LISTENING.length()));
            }
        }
        throw new AssertionError("no listening line: the output ended without one");
    }

    /** Sends SIGTERM to {@code p} and checks that it ends within 20 s with exit code 0 (a clean stop). */
    public static void stopsCleanlyOnSigterm(Process p) throws InterruptedException {
        p.destroy();
        assertTrue(p.waitFor(20, TimeUnit.SECONDS), "the server should stop on SIGTERM");
        assertEquals(0, p.exitValue(), "a clean stop on SIGTERM: every session ended within the grace period");
    }
}
