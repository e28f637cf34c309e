package flowtest.mina;

import dev.flow.Connector;
import dev.flow.Transport;
import java.io.IOException;
import java.util.concurrent.Callable;

/** Connects inside a frame that cannot be captured: a constructor, or a {@code synchronized} block. */
public class PinnedConnect implements Callable<String> {
    private final Connector connector;
    private final String where;

    public PinnedConnect(Connector connector, String where) {
        this.connector = connector;
        this.where = where;
    }

    @Override
    public String call() throws IOException {
        Transport t;
        if (where.equals("constructor")) {
            t = new Opened(connector).transport;
        } else {
            synchronized (this) {
                t = connector.connect();
            }
        }
        try (Transport open = t) {
            return open.readLine();
        }
    }

    /** Connects in its constructor. */
    public static final class Opened {
        final Transport transport;

        Opened(Connector connector) throws IOException {
            transport = connector.connect();
        }
    }
}
