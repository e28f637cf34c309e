package dev.flow.bench.flows;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.Callable;

/**
 * {@code InetAddress.getAllByName(host)} {@code times} times; returns the number of addresses found in all. Loaded
 * through the {@code ContinuationClassLoader}, each lookup of a name is a suspension point: in a flow it is made on
 * one of Flow's lookup threads while the flow waits.
 */
public final class LookupLoop implements Callable<Object> {

    private final String host;
    private final int times;

    public LookupLoop(String host, int times) {
        this.host = host;
        this.times = times;
    }

    @Override
    public Object call() throws UnknownHostException {
        int found = 0;
        for (int i = 0; i < times; i++) {
            found += InetAddress.getAllByName(host).length;
        }
        return found;
    }
}
