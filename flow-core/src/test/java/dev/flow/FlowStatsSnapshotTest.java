package dev.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A stats snapshot is consistent where callers rely on it: one that is idle counts every flow that ended. */
class FlowStatsSnapshotTest {

    private static final int FLOWS = 20_000;

    /**
     * Red before the snapshot read the active count before the outcome counts: a flow that ended between
     * the two reads was missing from an idle snapshot (under CPU load).
     */
    @Test
    @Timeout(120)
    void anIdleSnapshotCountsEveryFlowThatEnded() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().workers(2).name("snapshot").build()) {
            for (int i = 1; i <= FLOWS; i++) {
                s.submit(() -> "ok");
                FlowStats st = s.stats();
                while (!st.isIdle()) {
                    Thread.onSpinWait();
                    st = s.stats();
                }
                int round = i;
                FlowStats idle = st;
                assertEquals(i, st.completed(), () -> "round " + round + ": " + idle);
                assertEquals(st.started(), st.completed() + st.failed(), () -> "round " + round + ": " + idle);
            }
        }
    }
}
