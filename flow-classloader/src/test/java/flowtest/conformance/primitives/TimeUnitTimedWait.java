package flowtest.conformance.primitives;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** {@code TimeUnit.timedWait} is {@code Object.wait}: it needs the monitor, so it is reported. */
public final class TimeUnitTimedWait implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Object monitor = new Object();
        synchronized (monitor) {
            TimeUnit.MILLISECONDS.timedWait(monitor, 1);
        }
        return "waited";
    }
}
