package flowtest.mina;

import dev.flow.Transport;
import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Server side: answers each line with {@code "<line> on <thread name>"}; on "stop", closes {@code
 * server} (its own server, as a "SHUTDOWN" command would), answers {@code "stopped: <close's result>"}
 * and reads on.
 */
public class StoppingEcho implements Callable<String> {
    private final Transport transport;
    private final AtomicReference<AutoCloseable> server;

    public StoppingEcho(Transport transport, AtomicReference<AutoCloseable> server) {
        this.transport = transport;
        this.server = server;
    }

    @Override
    public String call() throws Exception {
        String line;
        while ((line = transport.readLine()) != null) {
            if (line.equals("stop")) {
                server.get().close();
                transport.writeLine("stopped");
            } else {
                transport.writeLine(line + " on " + Thread.currentThread().getName());
            }
        }
        return "eof";
    }
}
