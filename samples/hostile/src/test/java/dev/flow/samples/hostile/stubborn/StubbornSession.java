package dev.flow.samples.hostile.stubborn;

import dev.flow.Transport;
import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A session handler that a stop cannot end: it answers {@code busy}, then ignores interrupts and a
 * closed connection for two minutes (bounded, so that a leaked process ends by itself).
 */
public final class StubbornSession implements Callable<Void> {

    private static final long STUBBORN_NANOS = TimeUnit.MINUTES.toNanos(2);

    private final Transport transport;

    /** The session of one connection. */
    public StubbornSession(Transport transport) {
        this.transport = transport;
    }

    @Override
    public Void call() throws IOException {
        transport.writeLine("busy");
        transport.flush();
        long end = System.nanoTime() + STUBBORN_NANOS;
        while (System.nanoTime() - end < 0) {
            Thread.interrupted(); // a stop's interrupt is ignored on purpose
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
        return null;
    }
}
