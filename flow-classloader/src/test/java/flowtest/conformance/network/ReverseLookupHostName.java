package flowtest.conformance.network;

import java.net.InetAddress;
import java.util.concurrent.Callable;

/** {@code getHostName} of an address made from bytes (no name yet): a reverse lookup, reported. */
public final class ReverseLookupHostName implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        InetAddress a = InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
        return "named " + !a.getHostName().isEmpty();
    }
}
