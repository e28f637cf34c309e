package flowtest.mina;

import dev.flow.Transport;
import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * Server side: answers each line with {@code "<line> on <thread name>"}, after sleeping 20 ms for
 * "sleep", after computing 20 ms (a busy loop, no wait) for "spin", or after waiting for {@code later}
 * for "future" (then the line is the future's value).
 */
public class ThreadEcho implements Callable<String> {
    private final Transport transport;
    private final CompletableFuture<String> later;

    public ThreadEcho(Transport transport, CompletableFuture<String> later) {
        this.transport = transport;
        this.later = later;
    }

    @Override
    public String call() throws IOException, InterruptedException {
        String line;
        while ((line = transport.readLine()) != null) {
            if (line.equals("sleep")) {
                Thread.sleep(20);
            } else if (line.equals("spin")) {
                long end = System.nanoTime() + 20_000_000L;
                while (System.nanoTime() - end < 0) {
                    Thread.onSpinWait();
                }
            } else if (line.equals("future")) {
                line = later.join();
            }
            transport.writeLine(line + " on " + Thread.currentThread().getName());
        }
        return "eof";
    }
}
