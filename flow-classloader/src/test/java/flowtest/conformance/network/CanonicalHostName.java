package flowtest.conformance.network;

import java.net.InetAddress;
import java.util.concurrent.Callable;

/** {@code getCanonicalHostName}: a reverse lookup, reported. */
public final class CanonicalHostName implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        return "named " + !InetAddress.getLoopbackAddress().getCanonicalHostName().isEmpty();
    }
}
