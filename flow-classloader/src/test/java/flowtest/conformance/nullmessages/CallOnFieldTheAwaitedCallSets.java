package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/**
 * A call on a field that is null when read and set by the awaited call before it is used: the null
 * read is what is dereferenced.
 */
public final class CallOnFieldTheAwaitedCallSets implements Callable<Object> {
    private String text;

    @Override
    public Object call() throws Exception {
        return text.concat(awaitThenSet());
    }

    private String awaitThenSet() throws Exception {
        String v = Async.later("x").get();
        text = "changed";
        return v;
    }
}
