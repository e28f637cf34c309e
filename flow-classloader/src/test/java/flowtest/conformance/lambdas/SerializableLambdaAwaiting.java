package flowtest.conformance.lambdas;

import flowtest.support.Async;
import flowtest.support.Serial;
import java.io.Serializable;
import java.util.concurrent.Callable;

/** A serializable lambda whose body awaits, called before and after a serialization round trip. */
public final class SerializableLambdaAwaiting implements Callable<Object> {

    @Override
    public Object call() throws Exception {
        int base = 40;
        Sup<Integer> capturing = (Sup<Integer> & Serializable) () -> Async.later(base).get() + 2;
        Sup<Integer> copy = Serial.roundTrip(capturing);
        return capturing.get() + "," + copy.get();
    }
}
