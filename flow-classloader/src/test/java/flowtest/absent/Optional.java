package flowtest.absent;

/** An optional dependency: called only when it is present. */
public final class Optional {
    private Optional() {
    }

    public static String describe(String s) {
        return "optional " + s;
    }
}
