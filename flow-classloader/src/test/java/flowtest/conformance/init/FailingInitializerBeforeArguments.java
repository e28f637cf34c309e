package flowtest.conformance.init;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/**
 * {@code new Broken(arg)} where {@code Broken}'s static initializer fails: the error comes before
 * the argument is evaluated, so the argument's await never runs.
 */
public final class FailingInitializerBeforeArguments implements Callable<Object> {

    static final class Broken {
        static final int LIMIT = Integer.parseInt("not a number");

        Broken(int v) {
        }
    }

    private int evaluated;

    private int argument() throws Exception {
        evaluated++;
        return Async.later(1).get();
    }

    @Override
    public Object call() throws Exception {
        int before = Async.later(40).get();
        for (int i = 0; i < 2; i++) {
            try {
                new Broken(argument());
            } catch (LinkageError e) {
                before++;
            }
        }
        return before + " errors, arguments evaluated " + evaluated + " times";
    }
}
