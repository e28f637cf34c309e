package flowtest.scheduler;

import dev.flow.Flow;
import dev.flow.spi.Awaitable;
import java.util.concurrent.Callable;

/** Awaits an Awaitable handed to it, then returns "done". */
public class AwaitBroken implements Callable<Object> {
    private final Awaitable awaitable;

    public AwaitBroken(Awaitable awaitable) {
        this.awaitable = awaitable;
    }

    @Override
    public Object call() {
        Flow.await(awaitable);
        return "done";
    }
}
