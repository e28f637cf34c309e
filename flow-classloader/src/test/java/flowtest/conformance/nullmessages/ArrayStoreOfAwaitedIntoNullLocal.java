package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;

/** An array store of an awaited value into a null local array ({@code a[0] = f.get()}). */
public final class ArrayStoreOfAwaitedIntoNullLocal implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        String[] a = none();
        Future<String> f = Async.later("x");
        a[0] = f.get();
        return a;
    }

    private static String[] none() {
        return null;
    }
}
