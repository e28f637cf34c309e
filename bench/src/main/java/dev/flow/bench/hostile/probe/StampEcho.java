package dev.flow.bench.hostile.probe;

import dev.flow.Transport;
import dev.flow.bench.hostile.SessionStamps;
import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * The server side of {@code LatencyProbe}: for each line (a client's send time, {@code System.nanoTime()})
 * answers the line, the time the handler got it and the time the handler started, and on a session's
 * first line the server's stamps of the session ({@link SessionStamps}). Loaded through the {@code
 * ContinuationClassLoader} in continuation mode, normally on a virtual thread. One instance per session,
 * called on one thread at a time.
 */
public final class StampEcho implements Callable<Long> {
    private final Transport transport;

    /** Creates the handler of one session. */
    public StampEcho(Transport transport) {
        this.transport = transport;
    }

    /** Answers every line with the time the handler got it (see the class comment); returns how many. */
    @Override
    public Long call() throws IOException {
        long started = System.nanoTime();
        long answered = 0;
        for (String sent = transport.readLine(); sent != null; sent = transport.readLine()) {
            long got = System.nanoTime();
            String stamps = answered == 0 ? " " + started + SessionStamps.take(transport.remoteAddress()) : "";
            transport.writeLine(sent + " " + got + stamps);
            transport.flush();
            answered++;
        }
        return answered;
    }
}
