package flowtest.conformance.primitives;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.TimeUnit;

/** {@code CompletionService.take()} and timed {@code poll} of tasks another thread runs later. */
public final class CompletionServiceTake implements Callable<Object> {

    @Override
    public Object call() throws Exception {
        CompletionService<String> done =
                new ExecutorCompletionService<>(Async::runLater);
        done.submit(() -> "first");
        String first = done.take().get();
        done.submit(() -> "second");
        String second = done.poll(5, TimeUnit.SECONDS).get();
        return first + " " + second + " " + done.poll(10, TimeUnit.MILLISECONDS);
    }
}
