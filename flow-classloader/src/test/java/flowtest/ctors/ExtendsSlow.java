package flowtest.ctors;

/** A subclass: its {@code super(...)} call is a constructor call, never replaced. */
public class ExtendsSlow extends Slow {
    public ExtendsSlow(int value) {
        super(value + 1);
    }

    /** Builds a subclass instance: the allocation of another class than the point's stays as it is. */
    public static int make(int value) {
        return new ExtendsSlow(value).value;
    }
}
