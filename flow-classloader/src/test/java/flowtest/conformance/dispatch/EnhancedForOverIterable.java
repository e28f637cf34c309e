package flowtest.conformance.dispatch;

import java.util.concurrent.Callable;

/** An enhanced for over an in-scope iterable whose iterator awaits. */
public final class EnhancedForOverIterable implements Callable<Object> {
    @Override
    public Object call() {
        long sum = 0;
        for (int i : new AwaitingIterable(4)) {
            sum = sum * 10 + i;
        }
        return sum;
    }
}
