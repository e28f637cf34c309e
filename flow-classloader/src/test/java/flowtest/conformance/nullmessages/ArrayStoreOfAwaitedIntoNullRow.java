package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** An array store of an awaited value into a null row of a local two-dimensional array. */
public final class ArrayStoreOfAwaitedIntoNullRow implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        String[][] grid = new String[2][];
        grid[1][0] = Async.later("x").get();
        return grid;
    }
}
