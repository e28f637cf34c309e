package flowtest.castfail;

/** A "blocking" method and a wrong replacement for it, registered as a suspension point by the test. */
public final class Source {

    /** The blocking method. */
    public String name() {
        return "source";
    }

    /** The replacement: returns an {@code Integer} where {@code name()} returns a {@code String}. */
    public static Object wrongReplacement(Source s) {
        return 42;
    }
}
