package flowtest.conformance.lambdas;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/**
 * Whether evaluating the same lambda or method-reference expression twice yields the same object:
 * the JDK shares one object per non-capturing site and creates one per evaluation otherwise.
 */
public final class LambdaIdentity implements Callable<Object> {

    static Integer one() {
        return 1;
    }

    static Integer slowOne() throws Exception {
        return Async.later(1).get();
    }

    private static Sup<Integer> nonCapturing() {
        return () -> 1;
    }

    private static Sup<Integer> nonCapturingAwaiting() {
        return () -> Async.later(1).get();
    }

    private static Sup<Integer> staticReference() {
        return LambdaIdentity::one;
    }

    private static Sup<Integer> staticReferenceAwaiting() {
        return LambdaIdentity::slowOne;
    }

    private static Sup<Integer> capturing(int x) {
        return () -> x;
    }

    private static Sup<Integer> capturingAwaiting(int x) {
        return () -> Async.later(x).get();
    }

    private Sup<String> bound() {
        return this::toString;
    }

    private String slowName() throws Exception {
        return Async.later("n").get();
    }

    private Sup<String> boundAwaiting() {
        return this::slowName;
    }

    @Override
    public Object call() throws Exception {
        return (nonCapturing() == nonCapturing()) + "," + (nonCapturingAwaiting() == nonCapturingAwaiting()) + ","
                + (staticReference() == staticReference()) + "," + (staticReferenceAwaiting() == staticReferenceAwaiting()) + ","
                + (capturing(1) == capturing(1)) + "," + (capturingAwaiting(1) == capturingAwaiting(1)) + ","
                + (bound() == bound()) + "," + (boundAwaiting() == boundAwaiting()) + ","
                + nonCapturingAwaiting().get() + capturingAwaiting(2).get() + boundAwaiting().get();
    }
}
