package flowtest.ctors;

import java.util.List;

/**
 * A value whose {@link #open} waits before it builds one: the replacement of the {@code (I)V} constructor in the
 * tests' {@code CONSTRUCTOR} point. Records every construction in {@link #made}.
 */
public class Slow {
    /** What was built, in order. */
    public static final List<Integer> made = new java.util.concurrent.CopyOnWriteArrayList<>();

    public final int value;

    public Slow(int value) {
        this.value = value;
        made.add(value);
    }

    /** Waits a millisecond (a suspension point in a flow), then builds. */
    public static Slow open(int value) throws InterruptedException {
        Thread.sleep(1);
        return new Slow(value);
    }
}
