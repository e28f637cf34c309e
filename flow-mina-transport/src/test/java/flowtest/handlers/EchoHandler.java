package flowtest.handlers;

import dev.flow.Transport;
import java.io.IOException;
import java.util.concurrent.Callable;

/** Server side, plain blocking code: echoes every line until end of stream; reports how it ended. */
public class EchoHandler implements Callable<String> {
    private final Transport transport;

    public EchoHandler(Transport transport) {
        this.transport = transport;
    }

    @Override
    public String call() throws IOException {
        int n = 0;
        try {
            String line;
            while ((line = transport.readLine()) != null) {
                transport.writeLine(line);
                n++;
            }
            Outcomes.record("eof after " + n);
            return "eof";
        } catch (IOException e) {
            Outcomes.record(e.getClass().getSimpleName() + " after " + n);
            throw e;
        }
    }
}
