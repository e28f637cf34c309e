package dev.flow.mina;

/** The TCP contract with input arriving one byte per MINA read. */
class TcpMinaTransportOneByteAtATimeTest extends TcpMinaTransportTest {

    @Override
    protected boolean peerWritesOneByteAtATime() {
        return true;
    }
}
