package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.internal.Pins;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * JDK {@code java.io} decorators and owner-based locks made by loaded code do not pin: the fixtures
 * that read and write through every JDK decorator Flow substitutes (readers, writers, buffered, data,
 * pushback and print streams, line-numbering reader, in-scope subclasses of each, also under {@code
 * synchronized (lock)}) over a transport's views, and hold locks across awaits, run as lenient flows
 * without a single pinned site reported.
 */
class DecoratorPinsTest {

    private static final String[] FIXTURES = {
        "flowtest.conformance.decorators.ReaderBattery",
        "flowtest.conformance.decorators.WriterBattery",
        "flowtest.conformance.decorators.ReaderOverView",
        "flowtest.conformance.decorators.SubclassesLockingLock",
        "flowtest.conformance.decorators.InputStreamBattery",
        "flowtest.conformance.decorators.OutputStreamBattery",
        "flowtest.conformance.decorators.PrintBattery",
        "flowtest.conformance.decorators.DataInputOverView",
        "flowtest.conformance.decorators.DataOutputOverView",
        "flowtest.conformance.decorators.FilterOutputSubclass",
        "flowtest.conformance.locks.LockHeldAcrossAwait",
        "flowtest.conformance.locks.ReadWriteLockAcrossAwait",
        "flowtest.conformance.locks.ConditionSignalledByAnotherFlow",
    };

    @Test
    void decoratorsAndLocksOfLoadedCodeReportNoPinnedSite() throws Exception {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.conformance").build();
        List<String> before = Pins.warnings();
        try (FlowScheduler scheduler = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).build()) {
            for (String fixture : FIXTURES) {
                scheduler.submit(loader.newInstance(Callable.class, fixture)).get(Duration.ofSeconds(20));
            }
            TestSupport.awaitIdle(scheduler);
        }
        List<String> pinned = new ArrayList<>(Pins.warnings());
        pinned.removeAll(before);
        System.out.println("pinned sites reported by the decorator and lock fixtures: " + pinned.size());
        pinned.forEach(System.out::println);
        assertEquals(List.of(), pinned, "pinned sites");
    }

    @Test
    void aScannerOverAViewOrFlowsDecoratorsOverOneWarnsWhereItIsMadeAndOneOverMemoryDoesNot() throws Exception {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.conformance").build();
        String p = "flowtest.conformance.decorators.";
        List<String> before = Pins.warnings();
        try (FlowScheduler scheduler = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).build()) {
            for (String fixture : new String[] {"ScannerOverView", "ScannerOverReaderOverView", "ScannerOverStreamOverView",
                    "ScannerOverMemoryIsNotReported"}) {
                scheduler.submit(loader.newInstance(Callable.class, p + fixture)).get(Duration.ofSeconds(20));
            }
            TestSupport.awaitIdle(scheduler);
        }
        List<String> warned = new ArrayList<>(Pins.warnings());
        warned.removeAll(before);
        System.out.println("pinned sites reported by the Scanner fixtures: " + warned);
        for (String made : new String[] {"ScannerOverView.call()Ljava/lang/Object; (line 17)",
                "ScannerOverReaderOverView.call()Ljava/lang/Object; (line 21)",
                "ScannerOverStreamOverView.call()Ljava/lang/Object; (line 22)"}) {
            assertEquals(1, warned.stream().filter(w -> w.startsWith("cannot suspend at " + p + made)).count(), () -> made + " in " + warned);
        }
        assertEquals(List.of(), warned.stream().filter(w -> w.contains("ScannerOverMemory")).collect(Collectors.toList()),
                "warnings of the Scanners over memory");
    }
}
