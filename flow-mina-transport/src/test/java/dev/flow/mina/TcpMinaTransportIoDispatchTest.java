package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.TransportConfig;
import org.junit.jupiter.api.AfterAll;

/**
 * The transport contract for {@link MinaTransport} over TCP with {@link Dispatch#IO_THREADS}: the
 * connector's I/O thread resumes the contract's flows that its input wakes.
 */
class TcpMinaTransportIoDispatchTest extends MinaTransportContractTest {

    @AfterAll
    static void flowsReallyRanOnTheIoThread() {
        assertTrue(FlowOps.IO_THREADS.endedOnIoThreads() > 0, "some FLOW variants must end on the I/O thread");
    }

    @Override
    protected FlowRunner flowRunner() {
        return FlowOps.IO_THREADS;
    }

    @Override
    protected Connection connect(TransportConfig config) throws Exception {
        Pairs.Tcp p = pairs.tcpOnIoThreads(config, FlowOps.IO_THREADS.scheduler());
        return new Connection(p.transport, p.peer);
    }
}
