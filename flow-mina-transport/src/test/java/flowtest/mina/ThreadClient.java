package flowtest.mina;

import dev.flow.Connector;
import dev.flow.Transport;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * Client side, of an echo server: sends up to {@code maxLines} lines and returns, for each echo, the
 * name of the thread it was read on ({@code " daemon"} appended for a daemon thread). With {@code
 * untilIoThread}, it stops at the first echo read on a MINA I/O thread and there closes {@code toClose};
 * until then it goes on past {@code maxLines} for up to {@value #UNTIL_IO_THREAD_SECONDS} s: on a loaded
 * machine, runs made long by a preempted thread or a collection keep a flow on workers for many lines.
 */
public class ThreadClient implements Callable<List<String>> {
    static final long UNTIL_IO_THREAD_SECONDS = 10;

    private final Connector connector;
    private final int maxLines;
    private final boolean untilIoThread;
    private final List<AutoCloseable> toClose;

    public ThreadClient(Connector connector, Integer maxLines, Boolean untilIoThread, List<AutoCloseable> toClose) {
        this.connector = connector;
        this.maxLines = maxLines;
        this.untilIoThread = untilIoThread;
        this.toClose = toClose;
    }

    @Override
    public List<String> call() throws Exception {
        List<String> threads = new ArrayList<>();
        try (Transport t = connector.connect()) {
            long start = System.nanoTime();
            long within = TimeUnit.SECONDS.toNanos(UNTIL_IO_THREAD_SECONDS);
            for (int i = 0; i < maxLines || untilIoThread && System.nanoTime() - start < within; i++) {
                String line = "line " + i;
                t.writeLine(line);
                if (!line.equals(t.readLine())) {
                    throw new IOException("no echo of " + line);
                }
                Thread self = Thread.currentThread();
                threads.add(self.getName() + (self.isDaemon() ? " daemon" : ""));
                if (untilIoThread && self.getName().contains("NioProcessor")) {
                    for (AutoCloseable c : toClose) {
                        c.close();
                    }
                    break;
                }
            }
        }
        return threads;
    }
}
