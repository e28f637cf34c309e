package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * One line per kind of event and interval, whatever the rate of events. The tests bind slf4j-nop, so the
 * lines go to {@code java.util.logging}, where {@link LogCapture} reads them.
 */
class EventLogTest {

    @Test
    void theFirstEventIsLoggedAtOnceAndTheRestOfTheIntervalOnlyCounted() {
        try (LogCapture log = new LogCapture(EventLogTest.class)) {
            EventLog events = new EventLog(EventLogTest.class, "server", Duration.ofHours(1));
            EventLog.Counter resets = events.counter("connections reset");
            for (int i = 0; i < 10_000; i++) {
                resets.record("peer " + i, null);
            }
            assertEquals(10_000, resets.total());
            assertEquals(List.of("WARNING server: 1 connections reset (last: peer 0), 1 in all; at most one such line every 3600 s"),
                    log.lines());
        }
    }

    @Test
    void withALineWriterTheRecordingThreadDoesNotWriteTheLineAndFlushWritesAtOnce() {
        try (LogCapture log = new LogCapture(EventLogTest.class)) {
            EventLog events = new EventLog(EventLogTest.class, "server", Duration.ofHours(1));
            List<Runnable> given = new ArrayList<>();
            events.writeLinesWith(given::add);
            EventLog.Counter resets = events.counter("connections reset");
            resets.record("peer 0", null);
            resets.record("peer 1", null);
            assertEquals(List.of(), log.lines(), "no line written on the recording thread");
            assertEquals(1, given.size(), "one line handed to the writer");
            events.flush();
            assertEquals(List.of("WARNING server: 1 connections reset, 2 in all; at most one such line every 3600 s"),
                    log.lines(), "the stop's summary is written at once");
            given.get(0).run();
            assertEquals("WARNING server: 1 connections reset (last: peer 0), 1 in all; at most one such line every 3600 s",
                    log.lines().get(1));
        }
    }

    @Test
    void aLineTheWriterRefusesIsWrittenOnTheRecordingThread() {
        try (LogCapture log = new LogCapture(EventLogTest.class)) {
            EventLog events = new EventLog(EventLogTest.class, "server", Duration.ofHours(1));
            events.writeLinesWith(task -> {
                throw new RejectedExecutionException("stopped");
            });
            events.counter("connections reset").record("peer 0", null);
            assertEquals(List.of("WARNING server: 1 connections reset (last: peer 0), 1 in all; at most one such line every 3600 s"),
                    log.lines());
        }
    }

    @Test
    void anEventAfterTheIntervalLogsTheCountSinceTheLastLine() {
        try (LogCapture log = new LogCapture(EventLogTest.class)) {
            Duration interval = Duration.ofMillis(50);
            AtomicLong now = new AtomicLong(-interval.toNanos());
            EventLog events = new EventLog(EventLogTest.class, "server", interval, now::get);
            EventLog.Counter timeouts = events.counter("sessions timed out");
            for (int i = 0; i < 5; i++) {
                timeouts.record(null, null);
                now.addAndGet(interval.toNanos() / 10);
            }
            now.addAndGet(interval.toNanos());
            timeouts.record("the last", "timeout");
            assertEquals(List.of("WARNING server: 1 sessions timed out, 1 in all; at most one such line every 50 ms",
                    "WARNING server: 5 sessions timed out (last: the last: timeout), 6 in all; at most one such line every 50 ms"),
                    log.lines());
        }
    }

    @Test
    void flushLogsWhatWasCountedAndNotLoggedOneLinePerKind() {
        try (LogCapture log = new LogCapture(EventLogTest.class)) {
            EventLog events = new EventLog(EventLogTest.class, "server", Duration.ofHours(1));
            EventLog.Counter resets = events.counter("connections reset");
            EventLog.Counter errors = events.counter("protocol errors");
            EventLog.Counter quiet = events.counter("accepts failed");
            for (int i = 0; i < 3; i++) {
                resets.record(null, null);
                errors.record(null, null);
            }
            events.flush();
            events.flush();
            List<String> lines = log.lines();
            assertEquals(4, lines.size(), lines.toString());
            assertTrue(lines.get(2).contains(": 2 connections reset, 3 in all"), lines.toString());
            assertTrue(lines.get(3).contains(": 2 protocol errors, 3 in all"), lines.toString());
            assertEquals(0, quiet.total());
        }
    }

    @Test
    void aNonPositiveIntervalIsRefusedWithItsValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new EventLog(EventLogTest.class, "server", Duration.ZERO));
        assertEquals("interval: PT0S (expected: > 0)", e.getMessage());
    }
}
