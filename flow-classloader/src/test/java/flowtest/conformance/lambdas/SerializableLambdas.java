package flowtest.conformance.lambdas;

import flowtest.support.Serial;
import java.io.Serializable;
import java.util.concurrent.Callable;

/** Serializable lambdas and method references, round-tripped through Java serialization. */
public final class SerializableLambdas implements Callable<Object> {

    static String twice(String s) {
        return s + s;
    }

    @Override
    public Object call() throws Exception {
        int base = 40;
        Sup<Integer> capturing = (Sup<Integer> & Serializable) () -> base + 2;
        Fn<String, String> reference = (Fn<String, String> & Serializable) SerializableLambdas::twice;
        Runnable runnable = (Runnable & Serializable) () -> { };
        Sup<Integer> copy = Serial.roundTrip(capturing);
        Fn<String, String> refCopy = Serial.roundTrip(reference);
        Runnable runCopy = Serial.roundTrip(runnable);
        runCopy.run();
        return capturing.get() + "," + copy.get() + "," + refCopy.apply("ab") + "," + (capturing instanceof Serializable)
                + "," + (runCopy instanceof Serializable);
    }
}
