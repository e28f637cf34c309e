package flowtest.mina;

import dev.flow.Transport;
import java.io.IOException;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Server side: echoes lines until the end of the stream, running {@code hold} (code that is not
 * instrumented and holds the thread, as a cold class load does): once at its start if {@code
 * holdAtStart} is still set (the first session takes it), and after each line "stall". Reports how it
 * ended.
 */
public class StallingEcho implements java.util.concurrent.Callable<String> {
    private final Transport transport;
    private final AtomicBoolean holdAtStart;
    private final Runnable hold;
    private final Queue<String> outcomes;

    public StallingEcho(Transport transport, AtomicBoolean holdAtStart, Runnable hold, Queue<String> outcomes) {
        this.transport = transport;
        this.holdAtStart = holdAtStart;
        this.hold = hold;
        this.outcomes = outcomes;
    }

    @Override
    public String call() throws IOException {
        try {
            if (holdAtStart.getAndSet(false)) {
                hold.run();
            }
            String line;
            while ((line = transport.readLine()) != null) {
                if (line.equals("stall")) {
                    hold.run();
                }
                transport.writeLine(line);
            }
            outcomes.add("eof");
            return "eof";
        } catch (IOException e) {
            outcomes.add(e.toString());
            throw e;
        }
    }
}
