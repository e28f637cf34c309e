package dev.flow.bench.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
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
    void theMediansTableTakesEachPhaseMedianOverTheRounds() {
        List<HostileLatency.Row> rows = new ArrayList<>();
        long[][] p99s = {{1000, 3000}, {2000, 2000}, {1500, 9000}};
        for (int round = 0; round < 3; round++) {
            HostileLatency.Row none = row(round + 1, "none", p99s[round][0], 0);
            rows.add(none);
            rows.add(row(round + 1, "external-reset-flood", p99s[round][1], none.phase.histogram.getValueAtPercentile(99)));
        }
        String table = HostileLatency.medians(rows);
        // flood p99s 3000, 2000, 9000 -> 3000; ratios 3.00, 1.00, 6.00 -> 3.00
        assertTrue(table.contains("| sync | external-reset-flood | 3 | "), table);
        assertTrue(table.contains("| 3.00 (3.00, 1.00, 6.00) | 30 | 0 |"), table);
        assertTrue(table.contains("| sync | none | 3 | "), table);
    }

    private static HostileLatency.Row row(int round, String attack, long p99, double unloaded) {
        Histogram h = new Histogram(3);
        for (int i = 0; i < 10; i++) {
            h.recordValue(p99);
        }
        return new HostileLatency.Row(round, "sync", attack, new HostileLatency.Phase(h, 10, 0), unloaded, "-");
    }

    @Test
    void theBaselinesAndTheExternalFloodAreOptions() {
        HostileLatency.Options o = HostileLatency.Options.parse("--modes", "baseline-blocking,baseline-virtual",
                "--attacks", "none,external-reset-flood", "--rounds", "3", "--flood-rate", "4000");
        assertEquals(List.of("baseline-blocking", "baseline-virtual"), o.modes);
        assertEquals(List.of("none", "external-reset-flood"), o.attacks);
        assertEquals(3, o.rounds);
        assertEquals(4000, o.floodRate);
        assertEquals("dev.flow.bench.load.LoadServer", HostileLatency.Server.mainAndArgs("baseline-virtual").get(0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HostileLatency.Options.parse("--rounds", "21"));
        assertEquals("--rounds: 21 (expected: 1..20)", e.getMessage());
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
