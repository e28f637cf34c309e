package flowtest.mina;

import dev.flow.Flow;
import dev.flow.Transport;
import java.io.IOException;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Server side: echoes lines until the end of the stream, running {@code hold} (code that is not
 * instrumented and holds the thread, as a cold class load does): once at its start if {@code
 * holdAtStart} is still set (the first session takes it), and after each line "stall"; after each line
 * "sleep" it sleeps {@link #SLEEP} (a handler busy with something other than its peer: no thread is held
 * in continuation mode). Reports how it ended.
 */
public class StallingEcho implements java.util.concurrent.Callable<String> {
    /** How long a line "sleep" makes the handler sleep before it answers. */
    public static final Duration SLEEP = Duration.ofSeconds(3);

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
    public String call() throws IOException, InterruptedException {
        try {
            if (holdAtStart.getAndSet(false)) {
                hold.run();
            }
            String line;
            while ((line = transport.readLine()) != null) {
                if (line.equals("stall")) {
                    hold.run();
                } else if (line.equals("sleep")) {
                    Flow.sleep(SLEEP);
                }
                transport.writeLine(line);
            }
            outcomes.add("eof");
            return "eof";
        } catch (IOException | InterruptedException e) {
            outcomes.add(e.toString());
            throw e;
        }
    }
}
