package flowtest.ctors;

import java.util.concurrent.Callable;

/** Allocations of {@link Slow} in the shapes javac emits: with side effects in the arguments, nested, in a branch. */
public class UsesSlow implements Callable<String> {
    private int counter;

    private int next() {
        return ++counter;
    }

    @Override
    public String call() {
        Slow a = new Slow(next());
        Slow b = new Slow(new Slow(next() * 10).value + next());
        Slow c = counter > 2 ? new Slow(next() + 100) : new Slow(-1);
        Object[] all = {new Slow(7), a};
        int sum = 0;
        for (int i = 0; i < 2; i++) {
            sum += new Slow(i + 1000).value;
        }
        return a.value + " " + b.value + " " + c.value + " " + ((Slow) all[0]).value + " " + sum + " " + counter;
    }
}
