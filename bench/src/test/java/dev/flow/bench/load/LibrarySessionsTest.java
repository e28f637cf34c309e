package dev.flow.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.bench.VirtualThreads;
import dev.flow.loader.ContinuationClassLoader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Runs {@link LibrarySessions} small (a few sessions, one measured round) for every library, so the bench does
 * not rot: every session of every mode returns the transcript of a session run alone, the flows suspend, and a
 * median line is printed for each mode. Seconds, not a measurement.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class LibrarySessionsTest {

    private static final int SESSIONS = 6;

    /** A small bench printing to {@code text}, its servers in virtual mode where the JDK has virtual threads. */
    private static LibrarySessions bench(ByteArrayOutputStream text) {
        return new LibrarySessions(SESSIONS, 2, VirtualThreads.available() ? Mode.VIRTUAL : Mode.CONTINUATION_IMMEDIATELY,
                new PrintStream(text, true, StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @EnumSource(LibrarySessions.Library.class)
    void everySessionOfEveryModeReturnsTheTranscriptOfASessionRunAloneAndTheFlowsSuspend(LibrarySessions.Library library)
            throws Exception {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        LibrarySessions bench = bench(text);
        int failures = bench.run(library, 1);
        bench.summary();
        System.out.print(text.toString(StandardCharsets.UTF_8));
        assertEquals(0, failures, "failed sessions");
        List<LibrarySessions.Run> runs = bench.runs();
        int modes = VirtualThreads.available() ? 3 : 2;
        assertEquals(2 * modes, runs.size(), "a warm-up and a measured round of each mode");
        double cpuMs = 0;
        for (LibrarySessions.Run r : runs) {
            if (r.mode().equals("continuation") && library == LibrarySessions.Library.JAKARTA_MAIL) {
                // Its protocol methods are synchronized: it pins where it waits (its sites reported), and its
                // waits hand their workers' places to other threads.
                assertTrue(r.pinnedSites() > 0, "Jakarta Mail's pinned sites are reported: " + r);
            } else if (r.mode().equals("continuation")) {
                assertTrue(r.resumptions() >= SESSIONS, "each flow suspended at least once: " + r);
            }
            assertEquals(LibrarySessions.isFlow(r.mode()), r.instrumented(), "only flows run loaded classes: " + r);
            // The process's CPU time moves in clock ticks (10 ms on Linux): a short run may read 0.
            assertTrue(r.wallMs() > 0 && r.cpuMs() >= 0, r.toString());
            if (Files.isDirectory(Path.of("/proc/self/task"))) {
                assertTrue(r.jitCpuMs() >= 0 && r.gcCpuMs() >= 0, "the JIT and GC threads' CPU is read: " + r);
            }
            if (Runtime.version().feature() >= 21) {
                assertTrue(r.allocatedMb() > 0, "the bytes allocated are read: " + r);
            }
            cpuMs += r.cpuMs();
        }
        assertTrue(cpuMs > 0, "the runs' CPU time, summed: " + runs);
        assertEquals(modes, text.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("medians | " + library.id))
                .count(), "a median line per mode");
    }

    @ParameterizedTest
    @EnumSource(value = LibrarySessions.Library.class, names = {"JEDIS", "HTTP", "SMTP"})
    void theStrictModesSessionsReturnTheTranscriptOfASessionRunAloneAndSuspend(LibrarySessions.Library library)
            throws Exception {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        LibrarySessions bench = bench(text);
        bench.modes(List.of("continuation-strict", "continuation-strict-workers"));
        int failures = bench.run(library, 1);
        System.out.print(text.toString(StandardCharsets.UTF_8));
        assertEquals(0, failures, "failed sessions");
        assertEquals(4, bench.runs().size(), "a warm-up and a measured round of each mode");
        for (LibrarySessions.Run r : bench.runs()) {
            assertTrue(r.resumptions() >= SESSIONS, "each flow suspended at least once: " + r);
            assertEquals(0, r.pinnedSites(), "strict: nothing pinned: " + r);
        }
    }

    @ParameterizedTest
    @EnumSource(value = LibrarySessions.Library.class, names = {"JEDIS", "JAKARTA_MAIL"})
    void theInstrumentedModesRunTheLoadersClassesOnThreadsWhereNothingSuspends(LibrarySessions.Library library)
            throws Exception {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        LibrarySessions bench = bench(text);
        List<String> modes = VirtualThreads.available() ? List.of("threads-instrumented", "virtual-instrumented")
                : List.of("threads-instrumented");
        bench.modes(modes);
        int failures = bench.run(library, 1);
        System.out.print(text.toString(StandardCharsets.UTF_8));
        assertEquals(0, failures, "failed sessions");
        assertEquals(2 * modes.size(), bench.runs().size(), "a warm-up and a measured round of each mode");
        for (LibrarySessions.Run r : bench.runs()) {
            assertTrue(r.instrumented(), "the sessions' classes are the continuation loader's: " + r);
            assertEquals(0, r.resumptions(), "threads, not flows: nothing resumed: " + r);
        }
    }

    @Test
    void theInstrumentedModesLoaderLeavesTheSocketsTheCodeAllocatesTheJdksWhereTheContinuationLoaderMakesThemFlows()
            throws Exception {
        String fixture = "flowtest.bench.SocketKinds";
        assertEquals("java.net.Socket javax.net.DefaultSocketFactory",
                LibrarySessions.instrumentedOnThreads("flowtest.bench").newInstance(Callable.class, fixture).call());
        assertEquals("dev.flow.mina.FlowSocket dev.flow.mina.FlowSocketFactory",
                ContinuationClassLoader.builder().include("flowtest.bench").build().newInstance(Callable.class, fixture).call());
    }

    @Test
    void pgjdbcRefusesAModeWithASocketFactoryItCannotBeGivenByClassName() {
        LibrarySessions bench = bench(new ByteArrayOutputStream());
        bench.modes(List.of("continuation-strict-workers"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> bench.run(LibrarySessions.Library.PGJDBC, 1));
        assertEquals("mode: continuation-strict-workers (expected for pgjdbc: threads, virtual, continuation or"
                + " continuation-strict; pgjdbc takes its socket factory by class name)", e.getMessage());
    }

    @Test
    void jakartaMailRefusesTheStrictModesWhichRefuseItsEveryWait() {
        LibrarySessions bench = bench(new ByteArrayOutputStream());
        bench.modes(List.of("threads", "continuation-strict"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> bench.run(LibrarySessions.Library.JAKARTA_MAIL, 1));
        assertEquals("mode: continuation-strict (expected for jakarta-mail: threads, virtual, continuation,"
                + " threads-instrumented or virtual-instrumented; a strict loader refuses Jakarta Mail, which pins at"
                + " every wait)", e.getMessage());
    }

    @Test
    void theModesRunInTheGivenOrderInTheFirstRoundAndRotateByOneEachRound() {
        List<String> modes = List.of("virtual", "continuation", "continuation-strict");
        assertEquals(modes, LibrarySessions.inRound(modes, 1));
        assertEquals(List.of("continuation", "continuation-strict", "virtual"), LibrarySessions.inRound(modes, 2));
        assertEquals(List.of("continuation-strict", "virtual", "continuation"), LibrarySessions.inRound(modes, 3));
        assertEquals(modes, LibrarySessions.inRound(modes, 4));
        assertEquals(List.of("continuation-strict", "virtual", "continuation"), LibrarySessions.inRound(modes, 0),
                "the last warm-up round runs in the order before the first measured one");
        assertEquals(List.of("continuation", "continuation-strict", "virtual"), LibrarySessions.inRound(modes, -1));
    }
}
