package flowtest.conformance.network;

import java.net.InetAddress;
import java.util.concurrent.Callable;

/** {@code InetAddress.getAllByName} of a name ({@code localhost}): a lookup by the resolver, reported. */
public final class LookupAllByName implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        return "found " + (InetAddress.getAllByName("localhost").length > 0);
    }
}
