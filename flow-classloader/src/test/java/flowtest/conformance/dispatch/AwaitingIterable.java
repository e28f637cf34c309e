package flowtest.conformance.dispatch;

import flowtest.support.Async;
import java.util.Iterator;
import java.util.NoSuchElementException;

/** An iterable of {@code 1..n} whose iterator awaits every element. */
public final class AwaitingIterable implements Iterable<Integer> {
    private final int n;

    public AwaitingIterable(int n) {
        this.n = n;
    }

    @Override
    public Iterator<Integer> iterator() {
        return new Iterator<>() {
            private int next = 1;

            @Override
            public boolean hasNext() {
                return next <= n;
            }

            @Override
            public Integer next() {
                if (next > n) {
                    throw new NoSuchElementException("after " + n);
                }
                return Async.later(next++).join();
            }
        };
    }
}
