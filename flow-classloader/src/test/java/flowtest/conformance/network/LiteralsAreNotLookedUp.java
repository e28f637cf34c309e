package flowtest.conformance.network;

import java.net.InetAddress;
import java.util.concurrent.Callable;

/**
 * Name lookups that provably do not wait: IP literals (v4 and v6), a null or empty name (the loopback
 * address), and {@code getHostName} of an address made with its name: never reported (the same call on an address made
 * from a literal is a reverse lookup, {@code ReverseLookupHostName}).
 */
public final class LiteralsAreNotLookedUp implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        InetAddress v4 = InetAddress.getByName("127.0.0.1");
        InetAddress[] v6 = InetAddress.getAllByName("::1");
        InetAddress bracketed = InetAddress.getByName("[::1]");
        InetAddress none = InetAddress.getByName(null);
        InetAddress empty = InetAddress.getByName("");
        InetAddress named = InetAddress.getByAddress("peer", new byte[] {127, 0, 0, 2});
        return v4.getHostAddress() + " " + v6.length + " " + bracketed.isLoopbackAddress() + " " + none.isLoopbackAddress()
                + " " + empty.isLoopbackAddress() + " " + named.getHostName();
    }
}
