package flowtest.loops;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Loops with suspension points inside, of the shapes code has: a counted loop, a loop with an array walked
 * between reads, nested loops with reads at both levels, a loop whose read is inside a {@code try} with a
 * handler that continues the loop, a {@code do}-{@code while}, a labelled {@code continue} to an outer loop,
 * a switch in a loop, and a read before and after any loop. Every read sleeps for a millisecond (a
 * suspension point in a flow). {@link #call()} returns a digest of every result, so a value lost or mixed
 * up across a suspension changes it.
 */
public final class Loops implements Callable<Object> {

    private int reads;

    /** How many times the last {@link #call()} read: one suspension each in a flow. */
    public int reads() {
        return reads;
    }

    @Override
    public Object call() throws InterruptedException {
        reads = 0;
        List<Object> out = new ArrayList<>();
        out.add(read(1));
        out.add(counted(5));
        out.add(arrayBetweenReads(new int[] {3, 1, 4, 1, 5, 9, 2, 6}));
        out.add(nested(3, 4));
        out.add(handlerContinues(6));
        out.add(doWhile(4));
        out.add(labelledContinue(3, 3));
        out.add(switchInLoop(new int[] {0, 1, 2, 3, 1, 0}));
        out.add(text(new String[] {"a", "bc", "def"}));
        out.add(read(2));
        return out.toString();
    }

    private int read(int x) throws InterruptedException {
        reads++;
        Thread.sleep(1);
        return x * 7 + 1;
    }

    private long counted(int n) throws InterruptedException {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum = sum * 31 + read(i);
        }
        return sum;
    }

    private long arrayBetweenReads(int[] values) throws InterruptedException {
        long sum = 0;
        int[] copy = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            copy[i] = values[i] * 3;
            if (values[i] % 2 == 1) {
                sum += read(copy[i]);
            }
            sum += copy[i];
        }
        return sum * 1_000 + copy[copy.length - 1];
    }

    private String nested(int rows, int columns) throws InterruptedException {
        StringBuilder b = new StringBuilder();
        for (int r = 0; r < rows; r++) {
            int rowStart = read(r);
            double scale = 1.5 * r;
            for (int c = 0; c < columns; c++) {
                b.append(rowStart + read(c) * (long) scale).append(',');
            }
            b.append(';');
        }
        return b.toString();
    }

    private int handlerContinues(int n) throws InterruptedException {
        int ok = 0;
        int failed = 0;
        for (int i = 0; i < n; i++) {
            try {
                int v = read(i);
                if (i % 3 == 0) {
                    throw new IllegalStateException("item " + i);
                }
                ok += v;
            } catch (IllegalStateException e) {
                failed += read(e.getMessage().length());
                continue;
            }
            ok++;
        }
        return ok * 1000 + failed;
    }

    private int doWhile(int n) throws InterruptedException {
        int i = 0;
        int sum = 0;
        do {
            sum += read(i) * i;
            i++;
        } while (i < n);
        return sum;
    }

    private String labelledContinue(int rows, int columns) throws InterruptedException {
        StringBuilder b = new StringBuilder();
        outer:
        for (int r = 0; r < rows; r++) {
            String prefix = "r" + read(r);
            for (int c = 0; c < columns; c++) {
                if (c > r) {
                    b.append(prefix).append('|');
                    continue outer;
                }
                b.append(read(c + 10)).append(' ');
            }
            b.append('/');
        }
        return b.toString();
    }

    private long switchInLoop(int[] kinds) throws InterruptedException {
        long digest = 17;
        int i = 0;
        while (i < kinds.length) {
            switch (kinds[i++]) {
                case 0:
                    digest = digest * 31 + read(100);
                    break;
                case 1:
                    long wide = read(200) * 3L;
                    digest = digest * 31 + wide;
                    break;
                case 2:
                    float f = read(300) / 2.0f;
                    digest = digest * 31 + (long) f;
                    break;
                default:
                    digest = digest * 31 + i;
            }
        }
        return digest;
    }

    private int text(String[] words) throws InterruptedException {
        int total = 0;
        for (String w : words) {
            String upper = w.toUpperCase();
            total += upper.length() * read(upper.charAt(0));
        }
        return total;
    }
}
