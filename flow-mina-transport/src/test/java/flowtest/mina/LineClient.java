package flowtest.mina;

import dev.flow.Connector;
import dev.flow.Transport;
import java.io.IOException;
import java.util.concurrent.Callable;

/** Client side: connects, sends lines, counts the correct echoes, says quit and expects the end. */
public class LineClient implements Callable<Integer> {
    private final Connector connector;
    private final int lines;
    private final String id;

    public LineClient(Connector connector, Integer lines, String id) {
        this.connector = connector;
        this.lines = lines;
        this.id = id;
    }

    @Override
    public Integer call() throws IOException {
        try (Transport t = connector.connect()) {
            int ok = 0;
            for (int i = 0; i < lines; i++) {
                String msg = id + ":" + i;
                t.writeLine(msg);
                if (msg.equals(t.readLine())) {
                    ok++;
                }
            }
            t.writeLine("quit");
            if (!"bye".equals(t.readLine()) || t.readLine() != null) {
                throw new IOException(id + ": expected bye and the end of the stream");
            }
            return ok;
        }
    }
}
