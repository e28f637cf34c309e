package flowtest.conformance.network;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.Callable;

/** {@code InetAddress.getLocalHost}: a lookup of the machine's own name; in a flow, on a lookup thread. */
public final class LookupLocalHost implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try {
            return "found " + InetAddress.getLocalHost();
        } catch (UnknownHostException e) {
            return "unknown host " + e.getMessage();
        }
    }
}
