package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;

/** A call on a null field with an awaited argument ({@code this.text.concat(f.get())}). */
public final class CallOnNullFieldWithAwaitedArgument implements Callable<Object> {
    private String text;

    @Override
    public Object call() throws Exception {
        Future<String> f = Async.later("x");
        return this.text.concat(f.get());
    }
}
