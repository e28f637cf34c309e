package flowtest.conformance.primitives;

import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Timed waits whose timeout is over before the first check can look at the clock ({@code 1 ns}) still
 * wait once, as the JDK's enter their wait whenever the timeout given is positive: {@code null} and
 * {@code false}, after the flow has given up its worker (however long the thread was held up between
 * the start and the check, as on a loaded machine).
 */
public final class TimedWaitsOfOneNanosecond implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        LinkedBlockingDeque<String> deque = new LinkedBlockingDeque<>();
        return deque.poll(1, TimeUnit.NANOSECONDS) + ", " + deque.pollFirst(1, TimeUnit.NANOSECONDS) + ", "
                + new Semaphore(0).tryAcquire(1, TimeUnit.NANOSECONDS);
    }
}
