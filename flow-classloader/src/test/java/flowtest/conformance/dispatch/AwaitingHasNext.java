package flowtest.conformance.dispatch;

import flowtest.support.Async;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.Callable;

/** An iterator whose {@code hasNext} awaits (a lookahead), driven by an explicit {@code while} loop. */
public final class AwaitingHasNext implements Callable<Object> {

    static final class Lookahead implements Iterator<String> {
        private final Iterator<String> source;
        private String next;

        Lookahead(Iterator<String> source) {
            this.source = source;
        }

        @Override
        public boolean hasNext() {
            if (next == null && source.hasNext()) {
                next = Async.later(source.next()).join();
            }
            return next != null;
        }

        @Override
        public String next() {
            if (!hasNext()) {
                throw new NoSuchElementException("no more words");
            }
            String n = next;
            next = null;
            return n;
        }
    }

    @Override
    public Object call() {
        Iterator<String> it = new Lookahead(List.of("a", "b", "c").iterator());
        StringBuilder b = new StringBuilder();
        while (it.hasNext()) {
            b.append(it.next());
        }
        try {
            it.next();
        } catch (NoSuchElementException e) {
            b.append(' ').append(e.getMessage());
        }
        return b.toString();
    }
}
