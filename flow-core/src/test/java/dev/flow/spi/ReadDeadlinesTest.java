package dev.flow.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.Deadline;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** #18: nesting and closing of read deadlines, without waiting for any of them. */
class ReadDeadlinesTest {

    @Test
    void noDeadlineMeansNoBound() {
        ReadDeadlines d = new ReadDeadlines();
        assertEquals(Long.MAX_VALUE, d.nanosLeft());
        assertThrows(IllegalStateException.class, () -> d.exceeded("peer"));
    }

    @Test
    void theEarliestOpenDeadlineAppliesWhicheverWasOpenedFirstAndClosingInAnyOrderRemovesIt() {
        ReadDeadlines d = new ReadDeadlines();
        Deadline hour = d.open(Duration.ofHours(1));
        Deadline minute = d.open(Duration.ofMinutes(1));
        Deadline day = d.open(Duration.ofDays(1));
        assertTrue(d.nanosLeft() <= Duration.ofMinutes(1).toNanos());
        assertEquals(Duration.ofMinutes(1), d.exceeded("peer").timeout());
        minute.close();
        assertTrue(d.nanosLeft() > Duration.ofMinutes(59).toNanos(), "the hour applies once the minute is closed");
        minute.close();
        hour.close();
        assertTrue(d.nanosLeft() > Duration.ofHours(23).toNanos());
        day.close();
        assertEquals(Long.MAX_VALUE, d.nanosLeft());
    }

    @Test
    void aZeroDeadlineHasPassedAtOnceAndTheExceptionNamesSourceAndTimeout() {
        ReadDeadlines d = new ReadDeadlines();
        try (Deadline zero = d.open(Duration.ZERO)) {
            assertTrue(d.nanosLeft() <= 0);
            assertEquals(Duration.ZERO, zero.remaining());
            assertEquals("read from /10.0.0.1:25 passed its deadline of 0 ms (Transport.deadline)",
                    d.exceeded("/10.0.0.1:25").getMessage());
        }
    }

    @Test
    void aHugeTimeoutIsAlmostForeverAndANegativeOneIsRefusedNamingIt() {
        ReadDeadlines d = new ReadDeadlines();
        d.open(Duration.ofSeconds(Long.MAX_VALUE));
        assertTrue(d.nanosLeft() > Duration.ofDays(365 * 100).toNanos());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> d.open(Duration.ofSeconds(-2)));
        assertEquals("timeout: PT-2S (expected: >= 0)", e.getMessage());
    }
}
