package flowtest.conformance.network;

import java.net.InetAddress;
import java.util.concurrent.Callable;

/** {@code getCanonicalHostName}: a reverse lookup, in a flow on a lookup thread. */
public final class CanonicalHostName implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        return "named " + InetAddress.getLoopbackAddress().getCanonicalHostName() + " "
                + InetAddress.getByAddress(new byte[] {127, 0, 0, 1}).getCanonicalHostName();
    }
}
