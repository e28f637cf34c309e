package dev.flow.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@link ProcStats}: the JIT compilers' and the garbage collector's threads told apart by name, and read. */
class ProcStatsTest {

    @Test
    void hotSpotsCompilerAndCollectorThreadsAreToldApartByTheirNamesInProc() {
        assertEquals(ProcStats.ThreadKind.JIT, ProcStats.ThreadKind.of("C2 CompilerThre"));
        assertEquals(ProcStats.ThreadKind.JIT, ProcStats.ThreadKind.of("C1 CompilerThre"));
        assertEquals(ProcStats.ThreadKind.GC, ProcStats.ThreadKind.of("GC Thread#0"));
        assertEquals(ProcStats.ThreadKind.GC, ProcStats.ThreadKind.of("G1 Conc#0"));
        assertEquals(ProcStats.ThreadKind.GC, ProcStats.ThreadKind.of("G1 Refine#0"));
        assertEquals(ProcStats.ThreadKind.OTHER, ProcStats.ThreadKind.of("VM Thread"));
        assertEquals(ProcStats.ThreadKind.OTHER, ProcStats.ThreadKind.of("main"));
        assertEquals(ProcStats.ThreadKind.OTHER, ProcStats.ThreadKind.of("C2 Compiler"), "a name cut short is not guessed");
    }

    @Test
    void theCompilersAndTheCollectorsCpuIsReadWhereProcIs() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc");
        long[] jitGc = ProcStats.jitAndGcCpuNanos();
        assertEquals(2, jitGc.length);
        assertTrue(jitGc[0] >= 0 && jitGc[1] >= 0, "JIT " + jitGc[0] + " ns, GC " + jitGc[1] + " ns");
    }
}
