package flowtest.conformance.network;

import java.net.InetSocketAddress;
import java.util.concurrent.Callable;

/** {@code new InetSocketAddress(String, int)} of a name resolves it in the constructor: in a flow, on a lookup thread. */
public final class SocketAddressResolves implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        InetSocketAddress a = new InetSocketAddress("localhost", 80);
        return a + " unresolved " + a.isUnresolved() + " " + a.getHostString() + " " + a.getHostName()
                + " equal " + a.equals(new InetSocketAddress(a.getAddress(), 80));
    }
}
