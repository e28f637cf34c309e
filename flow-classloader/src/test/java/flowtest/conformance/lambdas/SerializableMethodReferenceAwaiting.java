package flowtest.conformance.lambdas;

import flowtest.support.Async;
import flowtest.support.Serial;
import java.io.Serializable;
import java.util.concurrent.Callable;

/** Serializable method references to awaiting private, public and static methods, called before and after a serialization round trip. */
public final class SerializableMethodReferenceAwaiting implements Callable<Object>, Serializable {

    private static final long serialVersionUID = 1L;

    private String slowName() throws Exception {
        return Async.later("private").get();
    }

    public String slowPublic() throws Exception {
        return Async.later("public").get();
    }

    static String slowStatic(String s) throws Exception {
        return Async.later(s).get();
    }

    @Override
    public Object call() throws Exception {
        Sup<String> bound = (Sup<String> & Serializable) this::slowName;
        Fn<String, String> stat = (Fn<String, String> & Serializable) SerializableMethodReferenceAwaiting::slowStatic;
        Sup<String> virtual = (Sup<String> & Serializable) this::slowPublic;
        Sup<String> boundCopy = Serial.roundTrip(bound);
        Sup<String> virtualCopy = Serial.roundTrip(virtual);
        Fn<String, String> statCopy = Serial.roundTrip(stat);
        return bound.get() + "," + boundCopy.get() + "," + stat.apply("s") + "," + statCopy.apply("t") + "," + slowName()
                + "," + virtual.get() + "," + virtualCopy.get() + "," + slowPublic();
    }
}
