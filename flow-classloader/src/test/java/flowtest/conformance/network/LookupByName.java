package flowtest.conformance.network;

import java.net.InetAddress;
import java.util.concurrent.Callable;

/** {@code InetAddress.getByName} of a name ({@code localhost}, resolved locally): a lookup by the resolver, reported. */
public final class LookupByName implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        return "loopback " + InetAddress.getByName("localhost").isLoopbackAddress();
    }
}
