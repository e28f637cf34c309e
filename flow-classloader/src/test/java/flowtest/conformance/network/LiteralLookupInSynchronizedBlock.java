package flowtest.conformance.network;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;

/**
 * Lookups that ask no resolver while a monitor is held (an IP literal, an address's known name): they do not wait,
 * so a strict loader does not refuse them, as it refuses a lookup of a name there ({@code LookupInSynchronizedBlockPins}).
 */
public final class LiteralLookupInSynchronizedBlock implements Callable<Object> {
    private final Object lock = new Object();

    @Override
    public Object call() throws Exception {
        synchronized (lock) {
            InetAddress a = InetAddress.getByName("127.0.0.1");
            InetSocketAddress s = new InetSocketAddress("::1", 80);
            InetAddress named = InetAddress.getByAddress("peer", new byte[] {127, 0, 0, 2});
            return a + " " + InetAddress.getAllByName("127.0.0.1").length + " " + s + " " + named.getHostName();
        }
    }
}
