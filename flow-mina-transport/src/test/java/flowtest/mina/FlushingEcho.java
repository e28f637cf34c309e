package flowtest.mina;

import dev.flow.Transport;
import java.io.IOException;
import java.util.concurrent.Callable;

/** Server side: echoes each line and flushes it, as a handler that answers one request at a time does; returns the lines echoed. */
public class FlushingEcho implements Callable<Integer> {
    private final Transport transport;

    public FlushingEcho(Transport transport) {
        this.transport = transport;
    }

    @Override
    public Integer call() throws IOException {
        int n = 0;
        String line;
        while ((line = transport.readLine()) != null) {
            transport.writeLine(line);
            transport.flush();
            n++;
        }
        return n;
    }
}
