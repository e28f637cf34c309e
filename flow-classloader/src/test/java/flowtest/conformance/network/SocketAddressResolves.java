package flowtest.conformance.network;

import java.net.InetSocketAddress;
import java.util.concurrent.Callable;

/** {@code new InetSocketAddress(String, int)} of a name resolves it in the constructor: reported. */
public final class SocketAddressResolves implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        return "unresolved " + new InetSocketAddress("localhost", 80).isUnresolved();
    }
}
