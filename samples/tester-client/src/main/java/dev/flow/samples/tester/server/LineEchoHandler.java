package dev.flow.samples.tester.server;

import dev.flow.Transport;
import java.io.IOException;
import java.util.concurrent.Callable;

/** Server-side session handler in plain blocking style: echoes lines until end of stream. */
public final class LineEchoHandler implements Callable<Long> {
    private final Transport transport;

    /** Creates a handler for one session. */
    public LineEchoHandler(Transport transport) {
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
