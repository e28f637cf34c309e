package flowtest.mina;

import dev.flow.Connector;
import dev.flow.Transport;
import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * Server side: for each line, connects to the backend, sends it the line and answers with the
 * backend's reply; a flow that connects, reads and writes on two sessions.
 */
public class Proxy implements Callable<String> {
    private final Transport transport;
    private final Connector backend;

    public Proxy(Transport transport, Connector backend) {
        this.transport = transport;
        this.backend = backend;
    }

    @Override
    public String call() throws IOException {
        String line;
        while ((line = transport.readLine()) != null) {
            try (Transport b = backend.connect()) {
                b.writeLine(line);
                transport.writeLine("proxied " + b.readLine());
            }
        }
        return "eof";
    }
}
