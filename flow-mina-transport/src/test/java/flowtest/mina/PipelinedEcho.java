package flowtest.mina;

import dev.flow.Transport;
import java.io.IOException;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

/**
 * Server side of the flush-consolidation tests: waits for {@code go}, then echoes each line and flushes it
 * (one flush per response, as a handler written for one request at a time does). After the first reply it
 * does what {@code then} says, with the next requests possibly already buffered: {@code echo} nothing;
 * {@code sleep} sleeps {@code millis}; {@code future} joins {@code hold}; {@code latch} awaits a latch that
 * {@code hold} counts down; {@code pinned} joins {@code hold} inside {@code synchronized} (a pinned wait);
 * {@code outside} runs {@code outside}, code not loaded through the loader (its wait blocks the worker);
 * {@code end} returns. It adds {@code "resumed"} to {@code events} when that wait is over. Returns the lines
 * echoed.
 */
public class PipelinedEcho implements Callable<Integer> {
    private final Transport transport;
    private final CompletableFuture<Void> go;
    private final String then;
    private final CompletableFuture<Void> hold;
    private final long millis;
    private final Queue<String> events;
    private final Runnable outside;

    public PipelinedEcho(Transport transport, CompletableFuture<Void> go, String then, CompletableFuture<Void> hold,
            Long millis, Queue<String> events, Runnable outside) {
        this.outside = outside;
        this.transport = transport;
        this.go = go;
        this.then = then;
        this.hold = hold;
        this.millis = millis;
        this.events = events;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        go.join();
        int n = 0;
        String line;
        while ((line = transport.readLine()) != null) {
            transport.writeLine(line);
            transport.flush();
            n++;
            if (n == 1 && !then.equals("echo")) {
                if (!afterFirstReply()) {
                    return n;
                }
                events.add("resumed");
            }
        }
        return n;
    }

    /** Waits as {@code then} says; {@code false} to end the handler. */
    private boolean afterFirstReply() throws InterruptedException {
        switch (then) {
            case "sleep":
                Thread.sleep(millis);
                return true;
            case "future":
                hold.join();
                return true;
            case "latch":
                CountDownLatch latch = new CountDownLatch(1);
                hold.thenRun(latch::countDown);
                latch.await();
                return true;
            case "pinned":
                synchronized (this) {
                    hold.join();
                }
                return true;
            case "outside":
                outside.run();
                return true;
            case "end":
                return false;
            default:
                throw new IllegalArgumentException("then: " + then);
        }
    }
}
