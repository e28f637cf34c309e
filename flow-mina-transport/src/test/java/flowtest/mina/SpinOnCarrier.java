package flowtest.mina;

import dev.flow.Transport;
import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Client side: reads a line, announces it through {@code entered}, keeps running (without waiting)
 * until {@code release} is set (10 s at most), then reads the next line.
 */
public class SpinOnCarrier implements Callable<String> {
    private final Transport transport;
    private final CountDownLatch entered;
    private final AtomicBoolean release;

    public SpinOnCarrier(Transport transport, CountDownLatch entered, AtomicBoolean release) {
        this.transport = transport;
        this.entered = entered;
        this.release = release;
    }

    @Override
    public String call() throws IOException {
        String first = transport.readLine();
        entered.countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!release.get() && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
        return first + " then " + transport.readLine();
    }
}
