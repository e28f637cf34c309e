package flowtest.conformance.dispatch;

import flowtest.support.Async;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;

/** An in-scope comparator that awaits, used by an in-scope insertion sort. */
public final class ComparatorThroughInterface implements Callable<Object> {

    static final class RemoteOrder implements Comparator<Integer> {
        @Override
        public int compare(Integer a, Integer b) {
            return Integer.compare(Async.later(a).join(), Async.later(b).join());
        }
    }

    static <T> void insertionSort(List<T> list, Comparator<? super T> c) {
        for (int i = 1; i < list.size(); i++) {
            T x = list.get(i);
            int j = i - 1;
            while (j >= 0 && c.compare(list.get(j), x) > 0) {
                list.set(j + 1, list.get(j));
                j--;
            }
            list.set(j + 1, x);
        }
    }

    @Override
    public Object call() {
        List<Integer> list = new ArrayList<>(Arrays.asList(3, 1, 2));
        insertionSort(list, new RemoteOrder());
        return list;
    }
}
