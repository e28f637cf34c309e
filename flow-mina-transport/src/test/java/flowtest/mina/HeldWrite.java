package flowtest.mina;

import dev.flow.Transport;
import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Writes a line (in a flow the transport holds it back until the flow flushes or waits), announces it through
 * {@code written}, keeps running without waiting until {@code release} is set (10 s at most), then flushes:
 * returns what the flush threw, or "none".
 */
public class HeldWrite implements Callable<String> {
    private final Transport transport;
    private final CountDownLatch written;
    private final AtomicBoolean release;

    public HeldWrite(Transport transport, CountDownLatch written, AtomicBoolean release) {
        this.transport = transport;
        this.written = written;
        this.release = release;
    }

    @Override
    public String call() throws IOException {
        transport.writeLine("held");
        written.countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!release.get() && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
        try {
            transport.flush();
            return "none";
        } catch (IOException e) {
            return e.getMessage();
        }
    }
}
