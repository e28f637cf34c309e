package flowtest.conformance.network;

import java.net.InetAddress;
import java.util.concurrent.Callable;

/** {@code InetAddress.getByName} of a name ({@code localhost}, resolved locally): in a flow, on a lookup thread. */
public final class LookupByName implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        InetAddress a = InetAddress.getByName("localhost");
        return a + " loopback " + a.isLoopbackAddress();
    }
}
