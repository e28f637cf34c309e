package flowtest.conformance.network;

import java.net.InetSocketAddress;
import java.util.concurrent.Callable;

/** {@code new InetSocketAddress(String, int)} with a null name or a port out of range: the JDK's refusals, no lookup. */
public final class SocketAddressArgumentsAreChecked implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        StringBuilder out = new StringBuilder();
        for (int port : new int[] {-1, 65536}) {
            try {
                out.append(new InetSocketAddress("localhost", port));
            } catch (IllegalArgumentException e) {
                out.append(e.getMessage()).append(' ');
            }
        }
        try {
            out.append(new InetSocketAddress((String) null, 80));
        } catch (IllegalArgumentException e) {
            out.append(e.getMessage());
        }
        return out.toString();
    }
}
