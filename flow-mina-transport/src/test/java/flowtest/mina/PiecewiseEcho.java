package flowtest.mina;

import dev.flow.Transport;
import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * Server side of the write-coalescing tests: answers each line {@code L} with {@code <L>} written in three
 * pieces (as a handler writes a status line, headers and a body), then flushes once if {@code flush} is
 * {@code true}, or leaves the reply unflushed and goes on to its next read (a wait) otherwise. A line
 * {@code bye} is answered the same way, without a flush, and ends the handler. Returns the lines answered.
 */
public class PiecewiseEcho implements Callable<Integer> {
    private final Transport transport;
    private final boolean flush;

    public PiecewiseEcho(Transport transport, Boolean flush) {
        this.transport = transport;
        this.flush = flush;
    }

    @Override
    public Integer call() throws IOException {
        int n = 0;
        String line;
        while ((line = transport.readLine()) != null) {
            transport.writeText("<");
            transport.writeText(line);
            transport.writeLine(">");
            n++;
            if (line.equals("bye")) {
                return n;
            }
            if (flush) {
                transport.flush();
            }
        }
        return n;
    }
}
