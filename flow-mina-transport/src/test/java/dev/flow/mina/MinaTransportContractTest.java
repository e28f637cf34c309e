package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.TransportContractTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;

/**
 * The transport contract for {@link MinaTransport}, in sync mode and (through {@link FlowOps}) in
 * continuation mode; subclasses choose TCP or an in-VM pipe.
 */
abstract class MinaTransportContractTest extends TransportContractTest {

    protected final Pairs pairs = new Pairs();

    @AfterAll
    static void continuationModeReallySuspended() {
        assertTrue(FlowOps.INSTANCE.resumed() + FlowOps.IO_THREADS.resumed() > 0,
                "the FLOW variants must suspend while waiting for input");
    }

    @Override
    protected FlowRunner flowRunner() {
        return FlowOps.INSTANCE;
    }

    @AfterEach
    void releasePairs() throws Exception {
        pairs.close();
    }
}
