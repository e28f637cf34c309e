package dev.flow.mina;

/** The in-VM pipe contract with every byte delivered in its own message. */
class VmPipeMinaTransportOneByteAtATimeTest extends VmPipeMinaTransportTest {

    @Override
    protected boolean peerWritesOneByteAtATime() {
        return true;
    }
}
