package dev.flow.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * When an adaptive carrier may run a flow ({@link FlowState#mayRunOnCarrier()}): after a streak of short
 * runs that doubles with each long run that follows another within 16 runs, and halves after 127 short
 * runs in a row.
 */
class CarrierRunsTest {

    private static final long LIMIT = 1_000_000;
    private static final long SHORT = 10_000;
    private static final long LONG = 2_000_000;

    private static void shortRuns(FlowState f, int n) {
        for (int i = 0; i < n; i++) {
            f.countRun(SHORT, LIMIT);
        }
    }

    @Test
    void aFlowMayRunOnACarrierAfterTwoShortRuns() {
        FlowState f = new FlowState(null, "f");
        assertFalse(f.mayRunOnCarrier());
        assertTrue(f.countsRuns());
        shortRuns(f, 1);
        assertFalse(f.mayRunOnCarrier());
        shortRuns(f, 1);
        assertTrue(f.mayRunOnCarrier());
        assertFalse(f.countsRuns(), "runs on workers are no longer timed");
    }

    @Test
    void aLoneLongRunIsForgiven() {
        FlowState f = new FlowState(null, "f");
        shortRuns(f, 2);
        f.countRun(LONG, LIMIT);
        assertTrue(f.mayRunOnCarrier());
        shortRuns(f, 16);
        f.countRun(LONG, LIMIT);
        assertTrue(f.mayRunOnCarrier(), "sixteen short runs apart, two long runs are each alone");
    }

    @Test
    void countsPastTheirCapsKeepTheRules() {
        // 300 short runs overrun every count FlowState keeps (127 short runs, 16 since the last long one):
        // they stay at their caps and no count spills into another.
        FlowState f = new FlowState(null, "f");
        shortRuns(f, 300);
        assertTrue(f.mayRunOnCarrier());
        f.countRun(LONG, LIMIT);
        assertTrue(f.mayRunOnCarrier(), "a long run after 300 short ones is alone");
        shortRuns(f, 5);
        f.countRun(LONG, LIMIT);
        assertFalse(f.mayRunOnCarrier(), "a second one five runs later counts");
        shortRuns(f, 3);
        assertFalse(f.mayRunOnCarrier());
        shortRuns(f, 1);
        assertTrue(f.mayRunOnCarrier(), "four short runs after it, as for a second long run anywhere");
    }

    @Test
    void aSecondLongRunWithinSixteenKeepsTheFlowOffCarriersUntilTwiceAsManyShortRunsInARow() {
        FlowState f = new FlowState(null, "f");
        shortRuns(f, 2);
        f.countRun(LONG, LIMIT);
        shortRuns(f, 15);
        f.countRun(LONG, LIMIT);
        assertFalse(f.mayRunOnCarrier());
        shortRuns(f, 3);
        assertFalse(f.mayRunOnCarrier());
        shortRuns(f, 1);
        assertTrue(f.mayRunOnCarrier(), "four short runs after the second long one");
        f.countRun(LONG, LIMIT);
        shortRuns(f, 7);
        assertFalse(f.mayRunOnCarrier());
        shortRuns(f, 1);
        assertTrue(f.mayRunOnCarrier(), "eight after a third");
    }

    @Test
    void theStreakAskedForStopsGrowingAtSixtyFour() {
        FlowState f = new FlowState(null, "f");
        for (int i = 0; i < 10; i++) {
            f.countRun(LONG, LIMIT);
        }
        shortRuns(f, 63);
        assertFalse(f.mayRunOnCarrier());
        shortRuns(f, 1);
        assertTrue(f.mayRunOnCarrier());
    }

    @Test
    void aLongStreakOfShortRunsHalvesTheStreakAskedFor() {
        FlowState f = new FlowState(null, "f");
        f.countRun(LONG, LIMIT);
        f.countRun(LONG, LIMIT);
        f.countRun(LONG, LIMIT);
        // Eight asked for now; 127 short runs and one more halve it to four.
        shortRuns(f, 128);
        assertTrue(f.mayRunOnCarrier());
        f.countRun(LONG, LIMIT);
        f.countRun(LONG, LIMIT);
        shortRuns(f, 7);
        assertFalse(f.mayRunOnCarrier());
        shortRuns(f, 1);
        assertTrue(f.mayRunOnCarrier(), "two long runs after the halving ask for eight again, not sixteen");
    }

    @Test
    void aFlowKeptOffCarriersNeverRunsThereWhateverItsRuns() {
        FlowState f = new FlowState(null, "f");
        f.neverOnCarrier();
        assertFalse(f.countsRuns());
        shortRuns(f, 200);
        assertFalse(f.mayRunOnCarrier());
    }
}
