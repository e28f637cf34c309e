package flowtest.mina;

import dev.flow.Transport;
import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * Server side, written as thread-per-connection code often is: each line is read inside {@code synchronized
 * (this)}, so in continuation mode every read that has to wait is a pinned wait; the answer is written after
 * the block.
 */
public class SynchronizedEcho implements Callable<String> {
    private final Transport transport;

    public SynchronizedEcho(Transport transport) {
        this.transport = transport;
    }

    @Override
    public String call() throws IOException {
        for (;;) {
            String line;
            synchronized (this) {
                line = transport.readLine();
            }
            if (line == null) {
                return "eof";
            }
            transport.writeLine(line);
        }
    }
}
