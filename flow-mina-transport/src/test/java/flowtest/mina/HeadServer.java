package flowtest.mina;

import dev.flow.Transport;
import java.io.IOException;
import java.util.Queue;
import java.util.concurrent.Callable;

/**
 * Server side: reads requests made of lines up to an empty line (an HTTP-like head) and answers each
 * with "done N" (N lines). A head whose first line is "sleep MS" is answered after sleeping that long.
 * Reports "head" when it has read the first line of a request, "sleeping" when it starts a sleep, and how the session ended: "eof", or the class
 * name and message of the exception.
 */
public class HeadServer implements Callable<Integer> {
    private final Transport transport;
    private final Queue<String> outcomes;

    public HeadServer(Transport transport, Queue<String> outcomes) {
        this.transport = transport;
        this.outcomes = outcomes;
    }

    @Override
    public Integer call() throws Exception {
        int served = 0;
        try {
            String first;
            while ((first = transport.readLine()) != null) {
                outcomes.add("head");
                int lines = 1;
                String line = first;
                while (!line.isEmpty()) {
                    line = transport.readLine();
                    if (line == null) {
                        throw new java.io.EOFException("end of stream inside a head");
                    }
                    lines++;
                }
                transport.endRequest();
                if (first.startsWith("sleep ")) {
                    outcomes.add("sleeping");
                    Thread.sleep(Long.parseLong(first.substring(6)));
                }
                transport.writeLine("done " + lines);
                served++;
            }
            outcomes.add("eof");
            return served;
        } catch (IOException | InterruptedException | RuntimeException e) {
            outcomes.add(e.getClass().getSimpleName() + ": " + e.getMessage());
            throw e;
        }
    }
}
