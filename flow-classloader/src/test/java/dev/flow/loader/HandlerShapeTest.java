package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * The exception tables of instrumented classes are ones HotSpot's C1 compiles: no handler's own
 * block holds an instruction that can throw and that the same entry covers ("exception handler
 * covers itself", the shape javac's {@code synchronized} cleanup handler took once Flow made every
 * handler start with a call), and no handler is also reached by normal control flow.
 */
class HandlerShapeTest {

    private static final String[] FIXTURES = {"SynchronizedBlock", "SynchronizedMethod", "TakeInSynchronized",
        "TakeReadyInSynchronized", "PinnedWaits", "TryFinally", "LockedAwait", "Nesting", "Loops"};
    private static final String[] DECORATORS = {"ReaderBattery", "WriterBattery", "PrintBattery", "InputStreamBattery",
        "OutputStreamBattery", "SubclassesLockingLock", "DirectSubclassesLockingLock"};
    private static final String[] SUBSTITUTES = {"FlowReentrantLock", "FlowReentrantReadWriteLock", "FlowBufferedReader",
        "FlowInputStreamReader", "FlowBufferedWriter", "FlowOutputStreamWriter", "FlowBufferedInputStream",
        "FlowPushbackInputStream", "FlowDataInputStream", "FlowBufferedOutputStream", "FlowDataOutputStream",
        "FlowLineNumberReader", "FlowPrintWriter", "FlowPrintStream", "FlowFilterOutputStream"};

    @Test
    void c1CanCompileEveryHandlerOfInstrumentedSynchronizedAndTryFinallyFixtures() {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.fixtures").noCache().build();
        List<String> found = new ArrayList<>();
        for (String f : FIXTURES) {
            found.addAll(C1RefusedHandlers.in(defined(loader, "flowtest.fixtures." + f)));
        }
        assertEquals(List.of(), found);
    }

    @Test
    void c1CanCompileEveryHandlerOfFlowsInstrumentedReadersWritersAndLocks() {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.conformance.decorators")
                .noCache().build();
        List<String> found = new ArrayList<>();
        for (String d : DECORATORS) {
            found.addAll(C1RefusedHandlers.in(defined(loader, "flowtest.conformance.decorators." + d)));
        }
        for (String s : SUBSTITUTES) {
            found.addAll(C1RefusedHandlers.in(defined(loader, "dev.flow.jdk." + s)));
        }
        assertEquals(List.of(), found);
    }

    @Test
    void checkFindsTheShapeJavacGivesSynchronizedBlocksWhenTheirHandlerStartsWithACall() throws Exception {
        byte[] plain = ClassLoader.getSystemResourceAsStream("flowtest/fixtures/SynchronizedBlock.class").readAllBytes();
        assertEquals(List.of(), C1RefusedHandlers.in(plain), "javac's own table");
        List<String> found = C1RefusedHandlers.in(C1RefusedHandlers.withCallAtEveryHandler(plain));
        assertEquals(1, found.size(), String.valueOf(found));
        assertTrue(found.get(0).contains("call()"), found.get(0));
    }

    @Test
    void synchronizedBlockStillReleasesItsMonitorAndSuspends() throws Exception {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.fixtures").noCache().build();
        try (FlowScheduler scheduler = FlowScheduler.builder().workers(1).name("handlers").build()) {
            Object r = scheduler.submit(loader.newInstance(Callable.class, "flowtest.fixtures.SynchronizedBlock"))
                    .get(Duration.ofSeconds(10));
            assertEquals(6, r);
            TestSupport.awaitIdle(scheduler);
        }
    }

    private static byte[] defined(ContinuationClassLoader loader, String className) {
        byte[] b = loader.definedBytes(className);
        assertNotNull(b, className + " not defined by the loader");
        return b;
    }
}
