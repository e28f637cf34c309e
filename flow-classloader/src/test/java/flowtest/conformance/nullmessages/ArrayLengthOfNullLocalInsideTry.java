package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** {@code length} of a null local array after an await inside {@code try}. */
public final class ArrayLengthOfNullLocalInsideTry implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        byte[] buffer = none();
        try {
            Async.later("x").get();
            return buffer.length;
        } finally {
            Async.later("y").get();
        }
    }

    private static byte[] none() {
        return null;
    }
}
