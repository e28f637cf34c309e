package flowtest.conformance.network;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.concurrent.Callable;

/** {@code InetAddress.getAllByName} of a name ({@code localhost}): in a flow, on a lookup thread. */
public final class LookupAllByName implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        return Arrays.toString(InetAddress.getAllByName("localhost"));
    }
}
