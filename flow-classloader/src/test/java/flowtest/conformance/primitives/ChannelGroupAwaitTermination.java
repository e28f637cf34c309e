package flowtest.conformance.primitives;

import java.nio.channels.AsynchronousChannelGroup;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** {@code AsynchronousChannelGroup.awaitTermination}: no suspendable form, so it is reported. */
public final class ChannelGroupAwaitTermination implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        AsynchronousChannelGroup group = AsynchronousChannelGroup.withFixedThreadPool(1, Executors.defaultThreadFactory());
        group.shutdown();
        return "terminated " + group.awaitTermination(5, TimeUnit.SECONDS);
    }
}
