package dev.flow.mina;

import dev.flow.TransportConfig;

/** The transport contract for {@link MinaTransport} over TCP on 127.0.0.1, against a plain socket. */
class TcpMinaTransportTest extends MinaTransportContractTest {

    @Override
    protected Connection connect(TransportConfig config) throws Exception {
        Pairs.Tcp p = pairs.tcp(config, peerWritesOneByteAtATime());
        return new Connection(p.transport, p.peer);
    }
}
