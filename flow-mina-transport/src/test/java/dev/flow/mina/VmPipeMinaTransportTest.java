package dev.flow.mina;

import dev.flow.TransportConfig;

/**
 * The transport contract for {@link MinaTransport} over an in-VM pipe. A pipe cannot be reset, so
 * {@code readThrowsIOExceptionWhenPeerResets} replays MINA's reset events (see {@link PipePeer}).
 */
class VmPipeMinaTransportTest extends MinaTransportContractTest {

    @Override
    protected Connection connect(TransportConfig config) throws Exception {
        Pairs.Pipe p = pairs.pipe(config);
        return new Connection(p.transport, p.peer);
    }
}
