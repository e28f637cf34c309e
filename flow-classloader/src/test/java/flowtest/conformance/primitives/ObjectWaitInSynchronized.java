package flowtest.conformance.primitives;

import java.util.concurrent.Callable;

/** {@code Object.wait(timeout)} inside {@code synchronized}: it needs the monitor, so it cannot suspend. */
public final class ObjectWaitInSynchronized implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Object monitor = new Object();
        synchronized (monitor) {
            monitor.wait(2);
        }
        return "waited";
    }
}
