package flowtest.conformance.network;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.Callable;

/** {@code InetAddress.getLocalHost}: a lookup of the machine's own name, reported. */
public final class LookupLocalHost implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try {
            return "found " + (InetAddress.getLocalHost() != null);
        } catch (UnknownHostException e) {
            return "unknown host";
        }
    }
}
