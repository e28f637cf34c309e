package flowtest.conformance.network;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;

/** {@code InetSocketAddress.getHostName} of an address made from one without a name: a reverse lookup. */
public final class SocketAddressReverseLookup implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        InetSocketAddress a = new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 80);
        String before = a.toString();
        return before + " named " + a.getHostName() + " then " + a + " " + a.getHostString();
    }
}
