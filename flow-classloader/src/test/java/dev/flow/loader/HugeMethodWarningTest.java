package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.loader.internal.HugeMethods;
import java.lang.management.ManagementFactory;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A method inside HotSpot's 8,000-byte limit for compiled methods as compiled but beyond it once
 * instrumented, even with the engine's code shrunk ({@code hugefix.Huge.run}: {@value #LOCALS} long locals
 * live across {@value #JOINS} {@code CompletableFuture.join()} calls, each of which the engine saves and
 * restores; each join's own code and its capture stay per call) would run
 * interpreted for the life of the JVM: the loader says so when it defines the class, with both sizes and
 * the JVM option that lifts the limit, also when the class comes from the cache. The method still runs
 * and suspends.
 */
class HugeMethodWarningTest {

    private static final String CLASS = "hugefix.Huge";
    private static final String RUN = FutureRunFixture.RUN;
    private static final int LOCALS = 16;
    private static final int JOINS = 60;
    private static final Pattern WARNING = Pattern.compile(Pattern.quote(CLASS + ".run" + RUN)
            + ": (\\d+) bytes of bytecode instrumented \\((\\d+) as compiled\\), over the 8000 bytes HotSpot compiles:"
            + " it will run interpreted; run the JVM with -XX:-DontCompileHugeMethods to have it compiled");

    @TempDir
    Path dir;

    @BeforeEach
    void theJvmKeepsHotSpotsDefaultLimit() {
        assumeTrue("true".equals(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("DontCompileHugeMethods").getValue()), "the test JVM runs with -XX:+DontCompileHugeMethods");
    }

    @Test
    void aMethodInstrumentationTakesPastTheCompileLimitIsReportedWithBothSizesAndStillSuspends() throws Exception {
        Path classes = writeHuge(dir.resolve("classes"));
        try (URLClassLoader parent = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
            ContinuationClassLoader loader = ContinuationClassLoader.builder().include("hugefix").parent(parent).noCache().build();
            int before = aboutHuge().size();
            loader.loadClass(CLASS);
            List<String> reported = aboutHuge().subList(before, aboutHuge().size());
            assertEquals(1, reported.size(), () -> "one warning, for run alone (call is small): " + reported);
            Matcher m = WARNING.matcher(reported.get(0));
            assertTrue(m.matches(), reported.get(0));
            assertTrue(Integer.parseInt(m.group(1)) > 8000, reported.get(0));
            assertTrue(Integer.parseInt(m.group(2)) <= 8000, reported.get(0));

            CompletableFuture<Long> f = new CompletableFuture<>();
            try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("huge").build()) {
                FlowHandle<Object> h = s.submit(loader.newInstance(Callable.class, CLASS, f));
                TestSupport.awaitSuspended(s, 1);
                f.complete(3L);
                assertEquals(expectedTotal(3L), h.get(Duration.ofSeconds(10)));
                assertEquals(1, s.stats().resumed(), "the flow suspended at the first join and resumed once");
                TestSupport.awaitIdle(s);
            }
        }
    }

    @Test
    void aClassServedFromTheCacheReportsItsHugeMethodAgain() throws Exception {
        Path classes = writeHuge(dir.resolve("classes"));
        Path cache = Files.createDirectories(dir.resolve("cache"));
        try (URLClassLoader parent = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
            ContinuationClassLoader first = ContinuationClassLoader.builder().include("hugefix").parent(parent)
                    .cacheDirectory(cache).build();
            int before = aboutHuge().size();
            first.loadClass(CLASS);
            ContinuationClassLoader second = ContinuationClassLoader.builder().include("hugefix").parent(parent)
                    .cacheDirectory(cache).build();
            second.loadClass(CLASS);
            assertEquals(0, second.classFilesMade(), "the second loader defined the class from the cache");
            List<String> reported = aboutHuge().subList(before, aboutHuge().size());
            assertEquals(2, reported.size(), () -> "one warning per loader: " + reported);
            assertEquals(reported.get(0), reported.get(1));
        }
    }

    private static List<String> aboutHuge() {
        return HugeMethods.warnings().stream().filter(w -> w.startsWith(CLASS + ".")).collect(Collectors.toList());
    }

    /** What {@code run} returns when every join gives {@code joined}: the locals' start values plus the joins. */
    private static long expectedTotal(long joined) {
        long total = 0;
        for (int k = 0; k < LOCALS; k++) {
            total += k;
        }
        return total + JOINS * joined;
    }

    /**
     * Writes {@code hugefix.Huge}: a {@code Callable} over a future whose {@code call()} returns {@code
     * run(future)}, and {@code static long run(CompletableFuture f)} that starts {@value #LOCALS} long locals
     * at 0, 1, 2..., adds {@code f.join()} to one of them {@value #JOINS} times in turn, and returns their sum.
     */
    static Path writeHuge(Path dir) throws Exception {
        FutureRunFixture fixture = new FutureRunFixture("hugefix/Huge");
        MethodVisitor run = fixture.run();
        for (int k = 0; k < LOCALS; k++) {
            run.visitLdcInsn((long) k);
            run.visitVarInsn(Opcodes.LSTORE, 1 + 2 * k);
        }
        for (int j = 0; j < JOINS; j++) {
            int local = 1 + 2 * (j % LOCALS);
            FutureRunFixture.addJoin(run, local);
        }
        run.visitVarInsn(Opcodes.LLOAD, 1);
        for (int k = 1; k < LOCALS; k++) {
            run.visitVarInsn(Opcodes.LLOAD, 1 + 2 * k);
            run.visitInsn(Opcodes.LADD);
        }
        run.visitInsn(Opcodes.LRETURN);
        return fixture.write(run, dir);
    }
}
