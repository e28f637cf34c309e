package dev.flow.samples.tester.client;

import dev.flow.Connector;
import dev.flow.Transport;
import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * The unmodified synchronous tester client: plain blocking code that knows only {@link Connector}
 * and {@link Transport}. Per transaction it connects, writes its lines, reads and checks every echo,
 * and closes. Loaded normally it blocks its thread; loaded through the {@code
 * ContinuationClassLoader} every connect, write and read suspends the flow instead.
 */
public final class TesterClient implements Callable<Long> {

    private final Connector connector;
    private final int transactions;
    private final int lines;
    private final String id;

    /**
     * Creates a client.
     *
     * @param connector where to connect
     * @param transactions how many transactions to run, one after the other
     * @param lines lines written and echoed per transaction
     * @param id a name that makes this client's lines unique
     */
    public TesterClient(Connector connector, int transactions, int lines, String id) {
        this.connector = connector;
        this.transactions = transactions;
        this.lines = lines;
        this.id = id;
    }

    /** Runs the transactions and returns the number of events (reads plus writes). */
    @Override
    public Long call() throws IOException {
        long events = 0;
        for (int t = 0; t < transactions; t++) {
            try (Transport transport = connector.connect()) {
                for (int i = 0; i < lines; i++) {
                    transport.writeLine(line(t, i));
                    events++;
                }
                for (int i = 0; i < lines; i++) {
                    String echo = transport.readLine();
                    String expected = line(t, i);
                    if (!expected.equals(echo)) {
                        throw new IOException("echo: " + echo + " (expected: " + expected + ")");
                    }
                    events++;
                }
            }
        }
        return events;
    }

    private String line(int transaction, int i) {
        return id + " transaction " + transaction + " line " + i;
    }
}
