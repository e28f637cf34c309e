package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;

/** An array store into a null local whose index local changes before the await ({@code a[i++] = f.get()}). */
public final class ArrayStoreWithIndexChangedBeforeAwait implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        String[] a = none();
        int i = 0;
        Future<String> f = Async.later("x");
        a[i++] = f.get();
        return i;
    }

    private static String[] none() {
        return null;
    }
}
