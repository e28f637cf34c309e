package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** {@code throw} of a null local assigned from an await. */
public final class ThrowsNullLocalAfterAwait implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Future<RuntimeException> f = Async.later(null);
        RuntimeException failure = f.get();
        throw failure;
    }
}
