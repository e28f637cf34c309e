package dev.flow.samples.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.TransportConfig;
import dev.flow.samples.http.protocol.HttpSession;
import dev.flow.samples.launcher.MemoryTransport;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Responses to pipelined requests go out together, one write when the input runs dry. */
class HttpSessionBatchingTest {

    @Test
    void pipelinedResponsesAreWrittenOnceWhenTheInputRunsDry() throws Exception {
        String requests = "GET / HTTP/1.1\r\nHost: x\r\n\r\n".repeat(10);
        MemoryTransport t = new MemoryTransport(TransportConfig.DEFAULT, requests.getBytes(StandardCharsets.ISO_8859_1));
        assertEquals(10L, new HttpSession(t, new HttpLimits(8192, 1024, 1000)).call());
        assertEquals(10, t.output().split("HTTP/1.1 200 OK\r\n", -1).length - 1, t.output());
        assertEquals(1, t.writes().size(), () -> t.writes().toString());
        assertTrue(t.output().endsWith("Hello from Flow\n"), t.output());
    }
}
