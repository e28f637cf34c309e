package dev.flow.samples.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.samples.launcher.SampleCommandLine;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The command line operators rely on: the listening line, SIGTERM (exit 0 after a clean stop), --help, exit code 2 on a bad option. */
@Timeout(60)
class RedisServerCommandLineTest {

    private static Process launch(String... args) throws IOException {
        return SampleCommandLine.launch(RedisServer.class, args);
    }

    @Test
    void printsTheListeningLineServesAndStopsCleanlyOnSigterm() throws Exception {
        servesPingAndStopsOnSigterm("--port", "0", "--mode", "continuation", "--workers", "1", "--policy", "after:1ms");
    }

    @Test
    void servesWithTheIoThreadsDispatch() throws Exception {
        servesPingAndStopsOnSigterm("--port", "0", "--workers", "1", "--dispatch", "io-threads");
    }

    @Test
    void servesLoadedLenient() throws Exception {
        servesPingAndStopsOnSigterm("--port", "0", "--workers", "1", "--strict", "false");
    }

    private static void servesPingAndStopsOnSigterm(String... args) throws Exception {
        Process p = launch(args);
        try {
            servesPingAndStopsOnSigterm(p);
        } finally {
            // a server left by a failed check would run on after the suite
            p.destroyForcibly();
        }
    }

    private static void servesPingAndStopsOnSigterm(Process p) throws Exception {
        int port = SampleCommandLine.listeningPort(p);
        try (Socket s = new Socket("127.0.0.1", port)) {
            // The first command instruments the handler: seconds on a loaded machine, never a read without end.
            s.setSoTimeout(30_000);
            OutputStream o = s.getOutputStream();
            o.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] reply = s.getInputStream().readNBytes(7);
            assertEquals("+PONG\r\n", new String(reply, StandardCharsets.US_ASCII));
        }
        SampleCommandLine.stopsCleanlyOnSigterm(p);
    }

    @Test
    void helpListsEveryOptionAndExitsZero() throws Exception {
        Process p = launch("--help");
        String text = SampleCommandLine.outputOnceEnded(p);
        assertEquals(0, p.exitValue(), text);
        for (String option : List.of("--port", "--mode", "--workers", "--policy", "--dispatch", "--strict", "--max-sessions",
                "--max-bulk-bytes",
                "--max-multibulk", "--max-inline-bytes", "--max-command-bytes", "--grace", "--stop-limit",
                "--max-starting-sessions", "--idle-timeout-ms", "--request-timeout-ms", "--min-request-rate")) {
            assertTrue(text.contains(option), () -> option + " missing from:\n" + text);
        }
    }

    /**
     * Thirteen JVMs one after the other, each waited for up to 30 s: beside 6 busy loops (load 15) they took
     * 57 s in all, 4.4 s each, against the 60 s the class gives a test.
     */
    @Test
    @Timeout(180)
    void aBadOptionIsNamedAndExitsWithTwo() throws Exception {
        for (String[] bad : List.of(new String[] {"--port", "70000"}, new String[] {"--mode", "fast"},
                new String[] {"--mode", "sync", "--workers", "2"}, new String[] {"--policy", "later"},
                new String[] {"--dispatch", "fast"}, new String[] {"--mode", "sync", "--dispatch", "io-threads"},
                new String[] {"--strict", "maybe"}, new String[] {"--mode", "sync", "--strict", "true"},
                new String[] {"--max-bulk-bytes", "0"}, new String[] {"--max-command-bytes", "0"},
                new String[] {"--grace", "soon"}, new String[] {"--stop-limit", "0"},
                new String[] {"--max-starting-sessions", "0"},
                new String[] {"--request-timeout-ms", "-1"}, new String[] {"--nope", "1"})) {
            Process p = launch(bad);
            String text = SampleCommandLine.outputOnceEnded(p);
            assertEquals(2, p.exitValue(), text);
            assertTrue(text.startsWith("error: " + bad[bad.length - 2]) || text.startsWith("error: unknown option: --nope"),
                    text);
        }
    }
}
