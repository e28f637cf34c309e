package dev.flow.bench.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the hostile-latency program briefly (one mode, the unloaded phase and one small attack, a few
 * hundred requests) against the HTTP sample in a child JVM and checks that it completes and reports
 * every request. Not a measurement.
 */
@Timeout(60)
class HostileLatencySmokeTest {

    @Test
    void aShortRunServesEveryRequestAloneAndUnderIdleConnections() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
        HostileLatency.Options o = HostileLatency.Options.parse("--modes", "continuation", "--attacks", "none,idle",
                "--requests", "200", "--warmup", "100", "--interval-us", "500", "--idle", "50", "--phase-seconds", "10");
        List<HostileLatency.Row> rows = HostileLatency.run(o, out);
        String report = log.toString(StandardCharsets.UTF_8);
        assertEquals(2, rows.size(), report);
        for (HostileLatency.Row r : rows) {
            assertEquals(200, r.phase.completed, () -> r.markdown() + "\n" + report);
            assertEquals(0, r.phase.errors, () -> r.markdown() + "\n" + report);
        }
        assertEquals(1.0, rows.get(0).ratio(), 1e-9);
        assertTrue(rows.get(1).detail.startsWith("50 idle connected (0 failed)"), rows.get(1).detail);
        assertTrue(HostileLatency.table(rows).contains("| continuation | idle |"), HostileLatency.table(rows));
    }

    @Test
    void anOutOfRangeOptionIsRefusedNamingTheValueAndTheLimit() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HostileLatency.Options.parse("--requests", "0"));
        assertEquals("--requests: 0 (expected: 1..1000000)", e.getMessage());
        IllegalArgumentException m = assertThrows(IllegalArgumentException.class,
                () -> HostileLatency.Options.parse("--modes", "fast"));
        assertTrue(m.getMessage().startsWith("--modes: fast (expected: one or more of"), m.getMessage());
    }
}
