package flowtest.conformance.pins;

import flowtest.support.Async;
import java.io.IOException;
import java.util.concurrent.Callable;

/** An await in the argument of {@code super(...)} fails, before the object is initialised. */
public final class SuperArgumentAwaitFails implements Callable<Object> {

    static class Named {
        final String name;

        Named(String name) {
            this.name = name;
        }
    }

    static final class Remote extends Named {
        Remote() {
            super(Async.<String>failLater(new IOException("unnamed")).join());
        }
    }

    @Override
    public Object call() throws Exception {
        String first;
        try {
            first = new Remote().name;
        } catch (RuntimeException e) {
            first = "no name";
        }
        return first + ", then " + Async.later(12).get() + " and " + Async.later(-12).get();
    }
}
