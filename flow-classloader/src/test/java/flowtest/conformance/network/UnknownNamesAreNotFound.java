package flowtest.conformance.network;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.Callable;

/**
 * A name no resolver knows ({@code .invalid}, reserved by RFC 6761): {@code getByName} and {@code getAllByName}
 * throw the JDK's {@code UnknownHostException}, {@code new InetSocketAddress} gives an unresolved address. The
 * exception's message starts with the name; the rest depends on the JDK's negative cache (the resolver's reason the
 * first time, nothing more while the failure is cached), so only its start is compared.
 */
public final class UnknownNamesAreNotFound implements Callable<Object> {
    private static final String NAME = "no-such-host.flow-test.invalid";

    @Override
    public Object call() throws Exception {
        StringBuilder out = new StringBuilder();
        try {
            out.append(InetAddress.getByName(NAME));
        } catch (UnknownHostException e) {
            out.append(e.getClass().getName()).append(' ').append(e.getMessage().startsWith(NAME)).append(" cause ")
                    .append(e.getCause());
        }
        try {
            out.append(' ').append(InetAddress.getAllByName(NAME).length);
        } catch (UnknownHostException e) {
            out.append(' ').append(e.getMessage().startsWith(NAME));
        }
        InetSocketAddress a = new InetSocketAddress(NAME, 443);
        return out.append(' ').append(a).append(" unresolved ").append(a.isUnresolved()).toString();
    }
}
