package flowtest.conformance.dispatch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code Collections.sort} calls an in-scope comparator that awaits: a JDK frame stands in between. */
public final class SortWithAwaitingComparator implements Callable<Object> {
    @Override
    public Object call() {
        List<Integer> list = new ArrayList<>(Arrays.asList(3, 1, 2));
        Collections.sort(list, new ComparatorThroughInterface.RemoteOrder());
        return list;
    }
}
