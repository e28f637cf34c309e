package flowtest.handlers;

import dev.flow.Connector;
import dev.flow.Transport;
import java.io.IOException;
import java.util.concurrent.Callable;

/** Client side, plain blocking code: connects, sends lines, checks the echoes. */
public class EchoClient implements Callable<Integer> {
    private final Connector connector;
    private final int lines;
    private final String id;

    public EchoClient(Connector connector, int lines, String id) {
        this.connector = connector;
        this.lines = lines;
        this.id = id;
    }

    @Override
    public Integer call() throws IOException {
        try (Transport t = connector.connect()) {
            int ok = 0;
            for (int i = 0; i < lines; i++) {
                t.writeLine(id + ":" + i);
                if ((id + ":" + i).equals(t.readLine())) {
                    ok++;
                }
            }
            return ok;
        }
    }
}
