package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** A field store into the null that {@code Future.get()} returns. */
public final class FieldStoreIntoReturnOfGet implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Future<Holder> f = Async.later(null);
        f.get().value = "v";
        return "stored";
    }

    static final class Holder {
        String value;
    }
}
