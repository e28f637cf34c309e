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
 * handler start with a call), no handler is reached again by an exception from its own code ("error while
 * joining with exception handler", the same cleanup once a {@code synchronized (lock)} block's exit is
 * {@code FlowMonitor.exit}), and no handler is also reached by normal control flow.
 */
class HandlerShapeTest {

    private static final String[] FIXTURES = {"SynchronizedBlock", "SynchronizedMethod", "TakeInSynchronized",
        "TakeReadyInSynchronized", "PinnedWaits", "TryFinally", "LockedAwait", "Nesting", "Loops"};
    private static final String[] DECORATORS = {"ReaderBattery", "WriterBattery", "PrintBattery", "InputStreamBattery",
        "OutputStreamBattery", "SubclassesLockingLock", "DirectSubclassesLockingLock"};
    /** Commons Net style subclasses of {@code Writer}, {@code Reader}, {@code BufferedReader}, {@code BufferedWriter}. */
    private static final String[] LOCKING_LOCK = {"DirectSubclassesLockingLock$DotWriter",
        "DirectSubclassesLockingLock$WordReader", "DirectSubclassesLockingLock$NullLocked", "SubclassesLockingLock$CrlfReader",
        "SubclassesLockingLock$CrlfWriter"};
    private static final String[] SUBSTITUTES = {"FlowReentrantLock", "FlowReentrantReadWriteLock", "FlowBufferedReader",
        "FlowInputStreamReader", "FlowBufferedWriter", "FlowOutputStreamWriter", "FlowBufferedInputStream",
        "FlowPushbackInputStream", "FlowDataInputStream", "FlowBufferedOutputStream", "FlowDataOutputStream",
        "FlowLineNumberReader", "FlowPrintWriter", "FlowPrintStream", "FlowFilterOutputStream"};

    @Test
    void c1CanCompileEveryHandlerOfInstrumentedSynchronizedAndTryFinallyFixtures() {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.fixtures").noCache().build();
        assertEquals(List.of(), refused(loader, "flowtest.fixtures.", FIXTURES));
    }

    @Test
    void c1CanCompileEveryHandlerOfFlowsInstrumentedReadersWritersAndLocks() {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.conformance.decorators")
                .noCache().build();
        List<String> found = new ArrayList<>(refused(loader, "flowtest.conformance.decorators.", DECORATORS));
        found.addAll(refused(loader, "dev.flow.jdk.", SUBSTITUTES));
        assertEquals(List.of(), found);
    }

    @Test
    void c1CanCompileLibraryReadersAndWritersWhoseSynchronizedLockBecameAFlowMonitor() {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.conformance.decorators")
                .noCache().build();
        assertEquals(List.of(), refused(loader, "flowtest.conformance.decorators.", LOCKING_LOCK));
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

    /** What {@link C1RefusedHandlers} finds in the classes {@code prefix + name} as {@code loader} defines them. */
    private static List<String> refused(ContinuationClassLoader loader, String prefix, String... names) {
        List<String> found = new ArrayList<>();
        for (String n : names) {
            found.addAll(C1RefusedHandlers.in(defined(loader, prefix + n)));
        }
        return found;
    }

    private static byte[] defined(ContinuationClassLoader loader, String className) {
        byte[] b = loader.definedBytes(className);
        assertNotNull(b, className + " not defined by the loader");
        return b;
    }
}
