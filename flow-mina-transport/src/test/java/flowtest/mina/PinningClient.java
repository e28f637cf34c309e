package flowtest.mina;

import dev.flow.Connector;
import dev.flow.Transport;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Client side, of an echo server: sends lines until an echo is read on a MINA I/O thread (up to {@code
 * maxLines}, or for {@value ThreadClient#UNTIL_IO_THREAD_SECONDS} s if that is longer), then, still there,
 * completes {@code pinnedOn} with its thread's name and waits for {@code gate} while holding a monitor (a
 * pinned wait in lenient mode), then sends {@code after} more lines. Returns the name of the thread each
 * echo was read on, with {@code "pinned on <thread>"} for the thread that waited for the gate.
 */
public class PinningClient implements Callable<List<String>> {
    private final Connector connector;
    private final int maxLines;
    private final CompletableFuture<String> pinnedOn;
    private final CompletableFuture<String> gate;
    private final int after;

    public PinningClient(Connector connector, Integer maxLines, CompletableFuture<String> pinnedOn,
            CompletableFuture<String> gate, Integer after) {
        this.connector = connector;
        this.maxLines = maxLines;
        this.pinnedOn = pinnedOn;
        this.gate = gate;
        this.after = after;
    }

    @Override
    public List<String> call() throws Exception {
        List<String> threads = new ArrayList<>();
        try (Transport t = connector.connect()) {
            long start = System.nanoTime();
            long within = TimeUnit.SECONDS.toNanos(ThreadClient.UNTIL_IO_THREAD_SECONDS);
            for (int i = 0; (i < maxLines || System.nanoTime() - start < within)
                    && !Thread.currentThread().getName().contains("NioProcessor"); i++) {
                echo(t, "line " + i);
                threads.add(Thread.currentThread().getName());
            }
            synchronized (this) {
                pinnedOn.complete(Thread.currentThread().getName());
                gate.join();
                threads.add("pinned on " + Thread.currentThread().getName());
            }
            for (int i = 0; i < after; i++) {
                echo(t, "after " + i);
                threads.add(Thread.currentThread().getName());
            }
        }
        return threads;
    }

    private static void echo(Transport t, String line) throws IOException {
        t.writeLine(line);
        if (!line.equals(t.readLine())) {
            throw new IOException("no echo of " + line);
        }
    }
}
