package dev.flow.bench.load.handlers;

import dev.flow.Transport;
import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * The server side of the line-echo protocol in plain blocking style: echoes every line until end
 * of stream. The same class runs in every blocking mode: loaded normally on a platform or virtual
 * thread per connection, or through the {@code ContinuationClassLoader} as a flow.
 */
public final class LineEcho implements Callable<Long> {
    private final Transport transport;

    /** Creates a handler for one connection. */
    public LineEcho(Transport transport) {
        this.transport = transport;
    }

    /** Echoes every line; returns how many. */
    @Override
    public Long call() throws IOException {
        long n = 0;
        String line;
        while ((line = transport.readLine()) != null) {
            transport.writeLine(line);
            n++;
        }
        return n;
    }
}
