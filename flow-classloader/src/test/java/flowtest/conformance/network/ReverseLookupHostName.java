package flowtest.conformance.network;

import java.net.InetAddress;
import java.util.concurrent.Callable;

/**
 * {@code getHostName} of an address made from bytes (no name yet): a reverse lookup, in a flow on a lookup thread;
 * the address keeps the name it found, as the JDK's does.
 */
public final class ReverseLookupHostName implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        InetAddress a = InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
        String before = a.toString();
        return before + " named " + a.getHostName() + " then " + a;
    }
}
