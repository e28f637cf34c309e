package dev.flow.mina;

import dev.flow.TransportConfig;

/**
 * The transport contract for {@link MinaTransport} over an in-VM pipe. A pipe cannot be reset, so
 * {@code readThrowsIOExceptionWhenPeerResets} replays MINA's reset events (see {@link PipePeer}); a pipe
 * never holds a writer back, so the write-timeout test is skipped.
 */
class VmPipeMinaTransportTest extends MinaTransportContractTest {

    /**
     * MINA delivers each write on a pipe synchronously to the other end and keeps what that end has not
     * read in the pipe's own queue: a writer is never held back, so there is no write timeout to show.
     */
    @Override
    protected boolean peerCanHoldWritesBack() {
        return false;
    }

    @Override
    protected Connection connect(TransportConfig config) throws Exception {
        Pairs.Pipe p = pairs.pipe(config);
        return new Connection(p.transport, p.peer);
    }
}
