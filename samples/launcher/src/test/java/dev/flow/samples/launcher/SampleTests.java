package dev.flow.samples.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** What the sample servers' tests share: raw exchanges and the end-of-test checks. */
public final class SampleTests {

    private SampleTests() {
    }

    /** Sends {@code request} on a fresh socket and returns everything the server sends until it closes (10 s at most per read). */
    public static String rawExchange(SampleServer server, String request) throws IOException {
        try (Socket s = new Socket("127.0.0.1", server.address().getPort())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] b = new byte[4096];
            int n;
            while ((n = in.read(b)) >= 0) {
                got.write(b, 0, n);
            }
            return got.toString(StandardCharsets.ISO_8859_1);
        }
    }

    /**
     * Waits for the sessions to end if {@code awaitSessions}, closes the server, waits (10 s at most) for
     * the ends of the sessions the close stopped to be counted, then checks: scheduler counters at 0, no
     * session running or failed, no scheduler thread left.
     */
    public static void closeAndCheck(SampleServer server, boolean awaitSessions) throws InterruptedException {
        try {
            if (awaitSessions) {
                assertTrue(server.awaitIdle(Duration.ofSeconds(30)), () -> "not idle: " + describe(server));
            }
        } finally {
            server.close();
        }
        // In continuation mode close() does not wait for the session flows it stopped: each one's end is
        // counted as the flow ends, just after (FlowServer#close()); a .ci/run once saw running=1 here.
        assertTrue(server.awaitIdle(Duration.ofSeconds(10)), () -> "not idle after close: " + describe(server));
        server.flowStats().ifPresent(s -> assertTrue(s.isIdle(), () -> "not idle: " + s));
        assertEquals(0, server.openSessions(), () -> describe(server));
        assertEquals(0, server.sessionStats().running(), () -> describe(server));
        assertEquals(0, server.sessionStats().failed(), () -> describe(server));
        String prefix = server.name();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(prefix)) {
                t.join(10_000);
                assertTrue(!t.isAlive(), () -> "thread left: " + t.getName());
            }
        }
    }

    private static String describe(SampleServer server) {
        return server.flowStats().map(Object::toString).orElse("sync") + " " + server.sessionStats();
    }
}
