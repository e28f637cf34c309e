package dev.flow.samples.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.TransportConfig;
import dev.flow.samples.launcher.MemoryTransport;
import dev.flow.samples.redis.protocol.RespSession;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Replies to pipelined commands go out together: one write when the input runs dry, at most 64 KiB each. */
class RespSessionBatchingTest {

    private static final RedisLimits LIMITS = new RedisLimits(1 << 20, 1024, 4096, 4 << 20);

    private static MemoryTransport serve(String input) throws Exception {
        MemoryTransport t = new MemoryTransport(TransportConfig.DEFAULT, input.getBytes(StandardCharsets.ISO_8859_1));
        new RespSession(t, new Store(), LIMITS).call();
        return t;
    }

    @Test
    void pipelinedRepliesAreWrittenOnceWhenTheInputRunsDry() throws Exception {
        MemoryTransport t = serve("PING\r\n".repeat(99) + "*2\r\n$4\r\nECHO\r\n$2\r\nhi\r\n");
        assertEquals("+PONG\r\n".repeat(99) + "$2\r\nhi\r\n", t.output());
        assertEquals(List.of(99 * 7 + 8), t.writes());
    }

    @Test
    void aLongPipelineIsWrittenInBatchesOfAtMost64KiB() throws Exception {
        int n = 20_000;
        MemoryTransport t = serve("PING\r\n".repeat(n));
        assertEquals(n * 7, t.output().length());
        assertEquals(3, t.writes().size());
        assertTrue(t.writes().stream().allMatch(w -> w <= 64 * 1024 + 7), () -> "writes: " + t.writes().size());
    }
}
