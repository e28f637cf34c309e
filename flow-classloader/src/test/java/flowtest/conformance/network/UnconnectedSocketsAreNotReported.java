package flowtest.conformance.network;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.util.concurrent.Callable;

/**
 * The socket constructors that do not connect ({@code new Socket()}, {@code new Socket(Proxy)}), a bind, and
 * the addresses that need no lookup (an {@code InetAddress}, an unresolved one, an IP literal): never reported.
 */
public final class UnconnectedSocketsAreNotReported implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (Socket plain = new Socket(); Socket direct = new Socket(Proxy.NO_PROXY)) {
            plain.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            InetSocketAddress byLiteral = new InetSocketAddress("127.0.0.1", 80);
            InetSocketAddress unresolved = InetSocketAddress.createUnresolved("example.invalid", 80);
            return plain.isBound() + " " + direct.isConnected() + " " + byLiteral.isUnresolved() + " " + unresolved.isUnresolved();
        }
    }
}
