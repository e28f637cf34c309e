package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import java.time.Duration;
import java.util.List;

/** The end of a server test: everything closed, no session open, the scheduler idle then stopped. */
final class Teardown {

    private Teardown() {
    }

    /** Closes the servers, checks they left nothing open, then stops the scheduler. */
    static void closeAll(List<FlowServer> servers, FlowScheduler scheduler) throws Exception {
        closeAll(null, servers, scheduler);
    }

    /** Closes the connector (if any) and the servers, checks they left nothing open, then stops the scheduler. */
    static void closeAll(FlowConnector connector, List<FlowServer> servers, FlowScheduler scheduler) throws Exception {
        try {
            if (connector != null) {
                connector.close();
            }
            for (FlowServer s : servers) {
                s.close();
                assertEquals(0, s.openSessions(), "open sessions after close");
            }
            Conditions.await("the scheduler to be idle", () -> scheduler.stats().isIdle(), () -> scheduler.stats().toString());
        } finally {
            scheduler.close();
            assertTrue(scheduler.awaitTermination(Duration.ofSeconds(5)));
        }
    }
}
