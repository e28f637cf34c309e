package flowtest.ctors;

import java.util.concurrent.Callable;

/**
 * Reads a value that a static initializer allocates, which cannot suspend: it stays a constructor call. The holder
 * is initialised by the first {@link #call()}, in the flow.
 */
public class StaticSlow implements Callable<Integer> {

    static final class Holder {
        static final Slow FIRST = new Slow(42);
    }

    @Override
    public Integer call() {
        return Holder.FIRST.value;
    }
}
