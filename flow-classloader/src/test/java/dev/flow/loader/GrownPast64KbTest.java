package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.internal.Pins;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A method that fits in 64 KB as compiled but not once the loader has rewritten its suspension points
 * (before the continuation engine sees it): {@code growfix.Grows.run} is written here with 65,523
 * bytes of code, three {@code CompletableFuture.join()} calls among them. A lenient loader leaves it
 * as compiled and reports each join as a pinned site when the class loads (class, method, line, why);
 * a strict loader refuses the class when it loads, in the same words.
 */
class GrownPast64KbTest {

    private static final String CLASS = "growfix.Grows";
    private static final String RUN = FutureRunFixture.RUN;
    private static final int FILLER = 16_370;
    private static final int[] JOIN_LINES = {10, 20, 30};
    private static final String WHY = "the continuation engine cannot instrument this method (method too large after rewriting (";

    @TempDir
    Path dir;

    @Test
    void lenientLoaderLeavesAMethodItsRewriteTakesPast64KbAsCompiledAndReportsEachJoinAsAPinnedSite() throws Exception {
        try (URLClassLoader parent = new URLClassLoader(new URL[] {classes().toUri().toURL()}, getClass().getClassLoader())) {
            ContinuationClassLoader loader = ContinuationClassLoader.builder().include("growfix").parent(parent).build();
            int before = aboutRun().size();
            Class<?> grows = loader.loadClass(CLASS);
            assertSame(loader, grows.getClassLoader());
            List<String> reported = aboutRun().subList(before, aboutRun().size());
            assertEquals(JOIN_LINES.length, reported.size(), () -> "one warning per join: " + reported);
            for (int k = 0; k < JOIN_LINES.length; k++) {
                assertTrue(reported.get(k).startsWith("cannot suspend at " + CLASS + ".run" + RUN + " (line " + JOIN_LINES[k]
                        + "): " + WHY), reported.get(k));
            }

            CompletableFuture<Long> f = new CompletableFuture<>();
            try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("grown").build()) {
                FlowHandle<Object> h = s.submit(loader.newInstance(Callable.class, CLASS, f));
                TestSupport.awaitRunning(s, 1);
                f.complete(7L);
                assertEquals(FILLER + 3 * 7L, h.get(Duration.ofSeconds(10)));
                assertEquals(0, s.stats().resumed(), "pinned: the flow blocked its worker rather than suspend");
                TestSupport.awaitIdle(s);
            }
            assertEquals(before + JOIN_LINES.length, aboutRun().size(), "no further warning when the pinned sites block");
        }
    }

    @Test
    void strictLoaderRefusesAMethodItsRewriteTakesPast64KbWhenTheClassLoads() throws Exception {
        try (URLClassLoader parent = new URLClassLoader(new URL[] {classes().toUri().toURL()}, getClass().getClassLoader())) {
            ContinuationClassLoader loader = ContinuationClassLoader.builder().include("growfix").parent(parent).strict(true).build();
            InstrumentationException e = assertThrows(InstrumentationException.class, () -> loader.loadClass(CLASS));
            assertEquals(CLASS, e.className());
            assertEquals("run", e.methodName());
            assertEquals(RUN, e.descriptor());
            assertTrue(e.getMessage().startsWith("cannot instrument " + CLASS + ".run" + RUN
                    + ": method too large after rewriting ("), e.getMessage());
        }
    }

    private static List<String> aboutRun() {
        return Pins.warnings().stream().filter(w -> w.startsWith("cannot suspend at " + CLASS + ".run"))
                .collect(Collectors.toList());
    }

    /**
     * Writes {@code growfix.Grows}: a {@code Callable} over a future whose {@code call()} returns {@code
     * run(future)}, and {@code static long run(CompletableFuture f)} adding 1 to a total {@value
     * #FILLER} times and {@code f.join()} three times (lines 10, 20, 30).
     */
    private Path classes() throws Exception {
        return writeGrows(dir);
    }

    /** Writes {@code growfix.Grows} (see {@link #classes()}) under {@code dir}; returns {@code dir}. */
    static Path writeGrows(Path dir) throws Exception {
        FutureRunFixture fixture = new FutureRunFixture("growfix/Grows");
        MethodVisitor run = fixture.run();
        run.visitInsn(Opcodes.LCONST_0);
        run.visitVarInsn(Opcodes.LSTORE, 1);
        for (int k = 0; k < FILLER; k++) {
            if (k % (FILLER / JOIN_LINES.length) == 0 && k / (FILLER / JOIN_LINES.length) < JOIN_LINES.length) {
                Label here = new Label();
                run.visitLabel(here);
                run.visitLineNumber(JOIN_LINES[k / (FILLER / JOIN_LINES.length)], here);
                FutureRunFixture.addJoin(run, 1);
            }
            run.visitVarInsn(Opcodes.LLOAD, 1);
            run.visitInsn(Opcodes.LCONST_1);
            run.visitInsn(Opcodes.LADD);
            run.visitVarInsn(Opcodes.LSTORE, 1);
        }
        run.visitVarInsn(Opcodes.LLOAD, 1);
        run.visitInsn(Opcodes.LRETURN);
        return fixture.write(run, dir);
    }
}
