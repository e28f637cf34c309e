package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;

/** A field store of an awaited value on a null local ({@code other.text = f.get()}). */
public final class FieldStoreOfAwaitedIntoNullLocal implements Callable<Object> {
    private String text;

    @Override
    public Object call() throws Exception {
        FieldStoreOfAwaitedIntoNullLocal other = none();
        Future<String> f = Async.later("x");
        other.text = f.get();
        return other;
    }

    private static FieldStoreOfAwaitedIntoNullLocal none() {
        return null;
    }
}
