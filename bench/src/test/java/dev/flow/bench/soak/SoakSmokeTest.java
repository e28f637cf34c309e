package dev.flow.bench.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the soak program for 5 s with a restart under load every 2 s, in continuation mode, and
 * checks that it passes: no worker died, no flow or session lost, every peer saw what it expected,
 * and file descriptors, threads and heap came back near their baseline. Not a measurement.
 */
@Timeout(120)
class SoakSmokeTest {

    @Test
    void soakOfFiveSecondsWithRestartsUnderLoadLosesNothing() throws Exception {
        soakFiveSeconds();
    }

    @Test
    void soakOfFiveSecondsWithFlowsOnTheIoThreadsLosesNothing() throws Exception {
        soakFiveSeconds("--io-threads");
    }

    /** Lenient, with a pinned wait per echo session: on its I/O thread it hands the thread's loop off. */
    @Test
    void soakOfFiveSecondsWithLenientFlowsThatPinOnTheIoThreadsLosesNothing() throws Exception {
        String report = soakFiveSeconds("--lenient");
        Matcher m = Pattern.compile("I/O loop hand-offs=(\\d+)").matcher(report);
        assertTrue(m.find(), report);
        assertTrue(Long.parseLong(m.group(1)) > 0, "no I/O thread handed its loop off: " + report);
    }

    @Test
    void soakOfFiveSecondsWithEveryFlowOnTheWorkersLosesNothing() throws Exception {
        soakFiveSeconds("--dispatch-workers");
    }

    /** Runs a soak of 5 s with {@code extra} options, checks it passed; returns its report. */
    private static String soakFiveSeconds(String... extra) throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
        List<String> args = new java.util.ArrayList<>(List.of("--seconds", "5", "--restart-every", "2",
                "--report-every", "2", "--idle-batch", "5"));
        args.addAll(List.of(extra));
        List<String> problems = Soak.run(SoakOptions.parse(args.toArray(new String[0])), out);
        String report = log.toString(StandardCharsets.UTF_8);
        assertTrue(problems.isEmpty(), () -> "problems: " + problems + "\n" + report);
        assertTrue(report.contains("soak: PASSED"), report);
        assertTrue(report.contains("closing generation 1 under load"), report);
        assertTrue(report.contains("closing generation 2 under load"), report);
        return report;
    }

    @Test
    void soakOptionsRejectUnknownAndOutOfRangeValues() {
        assertEquals("options: [colour] (expected: seconds, restart-every, report-every, sync, io-threads, "
                + "dispatch-workers, client-speaks-first, lenient, workers, scale, idle-batch)",
                assertThrows(IllegalArgumentException.class, () -> SoakOptions.parse("--colour", "red")).getMessage());
        assertEquals("--lenient with --io-threads (expected: continuation mode with the default dispatch or"
                + " --dispatch-workers; --io-threads refuses the pinned waits it adds)",
                assertThrows(IllegalArgumentException.class, () -> SoakOptions.parse("--lenient", "--io-threads")).getMessage());
        assertEquals("--seconds: 0 (expected: 1..86400)",
                assertThrows(IllegalArgumentException.class, () -> SoakOptions.parse("--seconds=0")).getMessage());
        assertEquals("--sync, --io-threads and --dispatch-workers (expected: at most one; sync mode has no flows)",
                assertThrows(IllegalArgumentException.class, () -> SoakOptions.parse("--sync", "--io-threads")).getMessage());
        assertEquals("--sync, --io-threads and --dispatch-workers (expected: at most one; sync mode has no flows)",
                assertThrows(IllegalArgumentException.class,
                        () -> SoakOptions.parse("--io-threads", "--dispatch-workers")).getMessage());
        assertEquals("--workers: two (expected: an integer)",
                assertThrows(IllegalArgumentException.class, () -> SoakOptions.parse("--workers", "two")).getMessage());
        assertEquals("--seconds 60 --restart-every 20 --report-every 5 --workers 2 --io-threads --client-speaks-first "
                + "--scale 1 --idle-batch 20", SoakOptions.parse("--io-threads", "--client-speaks-first").toString());
        assertEquals("--seconds 60 --restart-every 20 --report-every 5 --workers 2 --dispatch-workers --scale 1 "
                + "--idle-batch 20", SoakOptions.parse("--dispatch-workers").toString());
    }
}
