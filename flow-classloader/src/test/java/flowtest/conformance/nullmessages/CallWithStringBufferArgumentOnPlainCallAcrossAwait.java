package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** A method whose parameter type the JVM writes without its package called on a plain call's null, its argument awaited. */
public final class CallWithStringBufferArgumentOnPlainCallAcrossAwait implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        return none().contentEquals(buffer(Async.later("x").get()));
    }

    private static StringBuffer buffer(String text) {
        return new StringBuffer(text);
    }

    private static String none() {
        return null;
    }
}
