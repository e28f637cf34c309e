package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** A field assigned on the null a plain call returned, the assigned value awaited. */
public final class FieldOfPlainCallAcrossAwait implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        holder().value = Async.later("v").get();
        return "assigned";
    }

    static final class Holder {
        String value;
    }

    private static Holder holder() {
        return null;
    }
}
