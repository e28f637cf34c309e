package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import flowtest.fixtures.PinnedWaits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pinned flow shows in a JFR recording (and so in JDK Mission Control) as {@code dev.flow.Pinned} events, a
 * strict refusal as {@code dev.flow.Refused}, each naming its site in stack-trace style.
 */
class FlightRecorderEventsTest {

    private static final String PINNED = "dev.flow.Pinned";
    private static final String REFUSED = "dev.flow.Refused";

    private static FlowScheduler scheduler;

    @TempDir
    Path dir;

    @BeforeAll
    static void setUp() {
        // Every flow on the one worker thread: with a stand-in thread started during an earlier recording
        // (a pinned wait's hand-off), JDK 17 wrote a later recording's refused event with its reason as a
        // reference into the string pool of the earlier one (read back as null by JDK 17's and JDK 25's
        // parsers alike); JDK 25 writes it whole. The hand-offs are PinnedHandOffTest's.
        scheduler = FlowScheduler.builder().workers(1).maxPinnedThreads(0).name("jfr").build();
    }

    @AfterAll
    static void tearDown() {
        scheduler.close();
    }

    @AfterEach
    void countsReturnToZero() {
        TestSupport.awaitIdle(scheduler);
    }

    @Test
    void aPinnedWaitAboveTheThresholdIsRecordedWithItsSiteReasonAndDuration() throws Exception {
        ContinuationClassLoader lenient = ContinuationClassLoader.builder().include("flowtest.fixtures").build();
        List<RecordedEvent> events = record(r -> r.enable(PINNED), () -> assertEquals(7, run(lenient, "PinnedWaits")), PINNED);

        assertEquals(2, events.size(), () -> "the two 60 ms waits: " + events);
        RecordedEvent sleep = events.get(0);
        assertEquals("flowtest.fixtures.PinnedWaits.call(PinnedWaits.java:" + PinnedWaits.SLEEP_LINE + ")", sleep.getString("site"));
        assertEquals("a synchronized block holds a monitor", sleep.getString("reason"));
        assertTrue(sleep.getDuration().toMillis() >= 55, () -> "the sleep lasted 60 ms: " + sleep);
        assertTrue(sleep.getThread().getJavaName().startsWith("jfr-worker-"), () -> "on the blocked worker: " + sleep);
        RecordedEvent join = events.get(1);
        assertEquals("flowtest.fixtures.PinnedWaits.call(PinnedWaits.java:" + PinnedWaits.JOIN_LINE + ")", join.getString("site"));
        assertTrue(join.getDuration().toMillis() >= 55, () -> "the join waited 60 ms: " + join);
    }

    @Test
    void aPinnedWaitUnderTheThresholdIsNotRecordedAndTheDefaultThresholdIs20Ms() throws Exception {
        ContinuationClassLoader lenient = ContinuationClassLoader.builder().include("flowtest.fixtures").build();
        List<RecordedEvent> events = record(r -> r.enable(PINNED).withThreshold(Duration.ofSeconds(10)),
                () -> assertEquals(7, run(lenient, "PinnedWaits")), PINNED);

        assertEquals(List.of(), events, "two 60 ms waits, under a 10 s threshold");
        EventType type = FlightRecorder.getFlightRecorder().getEventTypes().stream()
                .filter(t -> t.getName().equals(PINNED)).findFirst().orElseThrow();
        assertEquals("20 ms", type.getSettingDescriptors().stream().filter(d -> d.getName().equals("threshold"))
                .findFirst().orElseThrow().getDefaultValue(), "as jdk.VirtualThreadPinned's");
    }

    @Test
    void aStrictRefusalAtRunTimeIsRecordedWithItsSiteAndReason() throws Exception {
        ContinuationClassLoader strict = ContinuationClassLoader.builder().include("flowtest.fixtures").strict(true).build();
        List<RecordedEvent> events = record(r -> r.enable(REFUSED), () -> {
            FlowHandle<Object> h = scheduler.submit(strict.newInstance(Callable.class, "flowtest.fixtures.SynchronizedBlock"));
            assertThrows(ExecutionException.class, () -> h.get(Duration.ofSeconds(10)));
        }, REFUSED);

        assertEquals(1, events.size(), () -> events.toString());
        assertEquals("flowtest.fixtures.SynchronizedBlock.call(SynchronizedBlock.java:14)", events.get(0).getString("site"));
        assertEquals("a synchronized block holds a monitor", events.get(0).getString("reason"));
    }

    @Test
    void aStrictRefusalAtLoadTimeIsRecordedWithTheMethodAndReason() throws Exception {
        ContinuationClassLoader strict = ContinuationClassLoader.builder().include("flowtest.refused").strict(true).build();
        List<RecordedEvent> events = record(r -> r.enable(REFUSED),
                () -> assertThrows(InstrumentationException.class, () -> strict.loadClass("flowtest.refused.Huge")), REFUSED);

        assertEquals(1, events.size(), () -> events.toString());
        assertEquals("flowtest.refused.Huge.run(Huge.java)", events.get(0).getString("site"));
        assertTrue(events.get(0).getString("reason").startsWith("method too large after instrumentation"),
                () -> events.get(0).getString("reason"));
    }

    @Test
    void aRecordingThatDisablesTheEventsRecordsNone() throws Exception {
        ContinuationClassLoader lenient = ContinuationClassLoader.builder().include("flowtest.fixtures").build();
        ContinuationClassLoader strict = ContinuationClassLoader.builder().include("flowtest.fixtures").strict(true).build();
        List<RecordedEvent> events = record(r -> {
            r.enable("jdk.ThreadSleep");
            r.disable(PINNED);
            r.disable(REFUSED);
        }, () -> {
            assertEquals(7, run(lenient, "PinnedWaits"));
            FlowHandle<Object> h = scheduler.submit(strict.newInstance(Callable.class, "flowtest.fixtures.SynchronizedBlock"));
            assertThrows(ExecutionException.class, () -> h.get(Duration.ofSeconds(10)));
        }, null);

        assertEquals(List.of(), events.stream().filter(e -> e.getEventType().getName().startsWith("dev.flow."))
                .collect(Collectors.toList()));
        assertTrue(events.stream().anyMatch(e -> e.getEventType().getName().equals("jdk.ThreadSleep")),
                () -> "the recording did record what it enabled: " + events);
    }

    private static Object run(ContinuationClassLoader loader, String fixture) throws Exception {
        return scheduler.submit(loader.newInstance(Callable.class, "flowtest.fixtures." + fixture)).get(Duration.ofSeconds(10));
    }

    /**
     * Runs {@code action} under a recording that {@code settings} configures; the events named {@code kept}
     * ({@code null}: all), in order. Flow's events are enabled by default, in any recording that does not
     * disable them.
     */
    private List<RecordedEvent> record(Consumer<Recording> settings, Action action, String kept) throws Exception {
        Path file = dir.resolve("flow.jfr");
        try (Recording r = new Recording()) {
            settings.accept(r);
            r.start();
            action.run();
            r.stop();
            r.dump(file);
        }
        return RecordingFile.readAllEvents(file).stream()
                .filter(e -> kept == null || e.getEventType().getName().equals(kept))
                .sorted((a, b) -> a.getStartTime().compareTo(b.getStartTime()))
                .collect(Collectors.toList());
    }

    private interface Action {
        void run() throws Exception;
    }
}
