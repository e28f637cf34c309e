package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link DirectReader.Tries}: before which waits an adaptive reader tries its socket. */
class DirectReaderTriesTest {

    @Test
    void aReaderWhoseTriesFindBytesOneInFiveKeepsTryingBeforeEveryWait() {
        DirectReader.Tries tries = new DirectReader.Tries();
        for (int i = 0; i < 500; i++) {
            assertTrue(tries.next(), "wait " + i);
            tries.found(i % 5 == 0);
        }
    }

    @Test
    void aNewReaderWhoseTriesFindNothingStopsAfterItsStartingScoreThenTriesOneWaitInEight() {
        DirectReader.Tries tries = new DirectReader.Tries();
        for (int i = 0; i < DirectReader.HIT_CREDIT; i++) {
            assertTrue(tries.next(), "try " + i + " of the starting score");
            tries.found(false);
        }
        for (int round = 0; round < 10; round++) {
            for (int i = 1; i < DirectReader.PROBE_EVERY; i++) {
                assertFalse(tries.next(), "round " + round + ", wait " + i + " skipped");
            }
            assertTrue(tries.next(), "round " + round + ": the probe");
            tries.found(false);
        }
    }

    @Test
    void aProbeThatFindsBytesMakesTheReaderTryBeforeTheNextWaitsAgain() {
        DirectReader.Tries tries = spent();
        for (int i = 1; i < DirectReader.PROBE_EVERY; i++) {
            assertFalse(tries.next());
        }
        assertTrue(tries.next());
        tries.found(true);
        for (int i = 0; i < DirectReader.HIT_CREDIT; i++) {
            assertTrue(tries.next(), "try " + i + " after the probe found bytes");
            tries.found(false);
        }
        assertFalse(tries.next(), "the credit spent again");
    }

    @Test
    void aReaderWhoseTriesFindBytesOneInSixEndsUpProbing() {
        DirectReader.Tries tries = new DirectReader.Tries();
        int tried = 0;
        int waits = 6_000;
        int sinceHit = 0;
        for (int i = 0; i < waits; i++) {
            if (tries.next()) {
                tried++;
                boolean hit = ++sinceHit == 6;
                if (hit) {
                    sinceHit = 0;
                }
                tries.found(hit);
            }
        }
        assertTrue(tried < waits / 2, "tried before " + tried + " of " + waits + " waits");
    }

    @Test
    void theScoreIsCappedSoThatALongRunOfHitsIsForgottenAfterSixteenMisses() {
        DirectReader.Tries tries = new DirectReader.Tries();
        for (int i = 0; i < 100; i++) {
            assertTrue(tries.next());
            tries.found(true);
        }
        int tried = 0;
        while (tries.next()) {
            tries.found(false);
            tried++;
        }
        assertEquals(DirectReader.MAX_SCORE, tried, "tries that found nothing before the reader stops trying");
    }

    /** A new reader whose starting score its tries that found nothing have spent. */
    private static DirectReader.Tries spent() {
        DirectReader.Tries tries = new DirectReader.Tries();
        for (int i = 0; i < DirectReader.HIT_CREDIT; i++) {
            assertTrue(tries.next());
            tries.found(false);
        }
        return tries;
    }
}
