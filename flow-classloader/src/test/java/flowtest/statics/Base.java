package flowtest.statics;

/**
 * Declares the static {@link #pause()} the tests' point replaces with {@link #pauseSuspending()}, and the final {@link
 * #name()} a final substitute replaces with {@link #nameSubstitute(Base)}.
 */
public class Base {
    public final String name() {
        return "final";
    }

    /** Not final: a final substitute of it is refused. */
    public String label() {
        return "label";
    }

    /** A final substitute's replacement, taking the receiver. */
    public static String nameSubstitute(Base receiver) {
        return "substituted-" + receiver.getClass().getSimpleName();
    }

    public static String pause() {
        return "base";
    }

    /** A static substitute's replacement: never waits. */
    public static String pauseSubstitute() {
        return "substituted";
    }

    /** The point's replacement: waits a millisecond (a suspension point in a flow). */
    public static String pauseSuspending() throws InterruptedException {
        Thread.sleep(1);
        return "replaced";
    }
}
