package flowtest.mina;

import dev.flow.Transport;
import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * Server side: reads and answers every line inside {@code synchronized (this)}, so no wait of its {@code call()}
 * can suspend and the loader leaves it as compiled: it is not a flow task.
 */
public class AllWaitsPinned implements Callable<String> {
    private final Transport transport;

    public AllWaitsPinned(Transport transport) {
        this.transport = transport;
    }

    @Override
    public String call() throws IOException {
        synchronized (this) {
            for (String line = transport.readLine(); line != null; line = transport.readLine()) {
                transport.writeLine(line);
            }
        }
        return "eof";
    }
}
