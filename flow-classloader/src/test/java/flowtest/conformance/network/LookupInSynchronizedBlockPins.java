package flowtest.conformance.network;

import java.net.InetAddress;
import java.util.concurrent.Callable;

/** A name lookup while a monitor is held: the flow cannot suspend there, so the lookup pins (reported). */
public final class LookupInSynchronizedBlockPins implements Callable<Object> {
    private final Object lock = new Object();

    @Override
    public Object call() throws Exception {
        synchronized (lock) {
            return "loopback " + InetAddress.getByName("localhost").isLoopbackAddress();
        }
    }
}
