package flowtest.mina;

import dev.flow.Transport;
import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * Server side: answers each line with {@code "<line> on <thread name>"}; after "pin", reads the next line
 * while holding a monitor (a pinned wait in lenient mode) and answers {@code "pinned <line> on <thread
 * name>"}.
 */
public class PinsOnRequest implements Callable<String> {
    private final Transport transport;

    public PinsOnRequest(Transport transport) {
        this.transport = transport;
    }

    @Override
    public String call() throws IOException {
        String line;
        while ((line = transport.readLine()) != null) {
            if (line.equals("pin")) {
                synchronized (this) {
                    String next = transport.readLine();
                    transport.writeLine("pinned " + next + " on " + Thread.currentThread().getName());
                }
            } else {
                transport.writeLine(line + " on " + Thread.currentThread().getName());
            }
        }
        return "eof";
    }
}
