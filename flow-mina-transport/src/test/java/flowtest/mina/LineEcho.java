package flowtest.mina;

import dev.flow.Transport;
import java.io.IOException;
import java.util.Queue;
import java.util.concurrent.Callable;

/** Server side: echoes lines until "quit" or the end of the stream and reports how it ended. */
public class LineEcho implements Callable<String> {
    private final Transport transport;
    private final Queue<String> outcomes;

    public LineEcho(Transport transport, Queue<String> outcomes) {
        this.transport = transport;
        this.outcomes = outcomes;
    }

    @Override
    public String call() throws IOException {
        try {
            String line;
            while ((line = transport.readLine()) != null) {
                if (line.equals("quit")) {
                    transport.writeLine("bye");
                    outcomes.add("quit");
                    return "quit";
                }
                transport.writeLine(line);
            }
            outcomes.add("eof");
            return "eof";
        } catch (IOException e) {
            outcomes.add(e.getClass().getSimpleName());
            throw e;
        }
    }
}
