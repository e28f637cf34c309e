package dev.flow.mina;

import dev.flow.TransportConfig;
import dev.flow.TransportContractTest;
import org.junit.jupiter.api.AfterEach;

/** The transport contract for {@link MinaTransport} over TCP on 127.0.0.1, against a plain socket. */
class TcpMinaTransportTest extends TransportContractTest {

    private final Pairs pairs = new Pairs();

    @Override
    protected Connection connect(TransportConfig config) throws Exception {
        Pairs.Tcp p = pairs.tcp(config, peerWritesOneByteAtATime());
        return new Connection(p.transport, p.peer);
    }

    @org.junit.jupiter.api.AfterAll
    static void continuationModeReallySuspended() {
        org.junit.jupiter.api.Assertions.assertTrue(FlowOps.INSTANCE.resumed() > 0,
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
