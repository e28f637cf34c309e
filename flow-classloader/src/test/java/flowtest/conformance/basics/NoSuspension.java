package flowtest.conformance.basics;

import java.util.concurrent.Callable;

/** Code with no suspension point at all: integer overflow, string building, an array result. */
public final class NoSuspension implements Callable<Object> {
    @Override
    public Object call() {
        int x = Integer.MAX_VALUE;
        x += 1;
        StringBuilder b = new StringBuilder();
        for (char c = 'a'; c < 'f'; c++) {
            b.append(c);
        }
        return new Object[] {x, b.toString(), new int[0].length};
    }
}
