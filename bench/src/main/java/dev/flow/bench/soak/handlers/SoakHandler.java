package dev.flow.bench.soak.handlers;

import dev.flow.MemoryBudgetExceededException;
import dev.flow.MemoryHold;
import dev.flow.Transport;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.Callable;

/**
 * The server side of the soak protocol in plain blocking style. Per line: {@code BLOB n} writes
 * {@code n} bytes {@code 'x'} then an empty line; {@code READ n} reads {@code n} bytes with {@code
 * readFully(n)} (a length declared by the peer) and answers {@code READ n}; {@code HOLD n} reads {@code
 * n} bytes under a {@link Transport#holdReads() hold} and keeps them until the peer ends the command
 * with a line, then answers {@code HELD n b} ({@code b}: the bytes the hold counted), or, when the
 * server's input budget refuses the read, answers {@code REFUSED} and the reason and fails the session
 * with the {@link MemoryBudgetExceededException}; {@code PAUSE} answers {@code PAUSED} after sleeping 1 ms
 * inside {@code synchronized} (a pinned wait, for the soak's {@code --lenient}: a strict loader refuses it);
 * {@code QUIT} ends the session; anything else is echoed. Loaded through the {@code ContinuationClassLoader}
 * in continuation mode, normally in sync mode. One instance per session, called on one thread at a time.
 */
public final class SoakHandler implements Callable<Long> {
    private static final int CHUNK = 16 * 1024;

    private final Transport transport;
    private final byte[] chunk = new byte[CHUNK];

    /** Creates the handler of one session. */
    public SoakHandler(Transport transport) {
        this.transport = transport;
        Arrays.fill(chunk, (byte) 'x');
    }

    /** Serves the session until {@code QUIT} or end of stream; returns the number of requests. */
    @Override
    public Long call() throws IOException, InterruptedException {
        long requests = 0;
        String line;
        while ((line = transport.readLine()) != null) {
            if (line.equals("QUIT")) {
                return requests;
            }
            if (line.startsWith("BLOB ")) {
                long left = Long.parseLong(line.substring(5));
                while (left > 0) {
                    int n = (int) Math.min(left, CHUNK);
                    transport.write(chunk, 0, n);
                    left -= n;
                }
                transport.writeLine("");
                transport.flush();
            } else if (line.startsWith("READ ")) {
                byte[] body = transport.readFully(Integer.parseInt(line.substring(5)));
                transport.writeLine("READ " + body.length);
            } else if (line.startsWith("HOLD ")) {
                hold(Integer.parseInt(line.substring(5)));
            } else if (line.equals("PAUSE")) {
                synchronized (this) {
                    Thread.sleep(1);
                }
                transport.writeLine("PAUSED");
            } else {
                transport.writeLine(line);
            }
            requests++;
        }
        return requests;
    }

    private void hold(int n) throws IOException {
        try (MemoryHold hold = transport.holdReads()) {
            byte[] body = transport.readFully(n);
            // The command is not over: the body stays held until its last line arrives.
            transport.readLine();
            transport.writeLine("HELD " + body.length + " " + hold.bytes());
            transport.flush();
        } catch (MemoryBudgetExceededException e) {
            transport.writeLine("REFUSED " + e.getMessage());
            transport.flush();
            throw e;
        }
    }
}
