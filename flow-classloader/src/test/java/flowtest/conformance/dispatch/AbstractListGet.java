package flowtest.conformance.dispatch;

import flowtest.support.Async;
import java.util.AbstractList;
import java.util.List;
import java.util.concurrent.Callable;

/** An in-scope {@code AbstractList} whose {@code get} awaits, read through {@code List.get}. */
public final class AbstractListGet implements Callable<Object> {

    static final class Squares extends AbstractList<Integer> {
        @Override
        public Integer get(int index) {
            if (index < 0 || index >= size()) {
                throw new IndexOutOfBoundsException("index: " + index + " (expected: 0 to " + (size() - 1) + ")");
            }
            return Async.later(index * index).join();
        }

        @Override
        public int size() {
            return 4;
        }
    }

    @Override
    public Object call() {
        List<Integer> squares = new Squares();
        int sum = 0;
        for (int i = 0; i < squares.size(); i++) {
            sum += squares.get(i);
        }
        try {
            squares.get(7);
        } catch (IndexOutOfBoundsException e) {
            return sum + " " + e.getMessage();
        }
        return sum;
    }
}
