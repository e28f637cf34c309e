package flowtest.statics;

/** Declares the static {@link #pause()} the tests' point replaces with {@link #pauseSuspending()}. */
public class Base {
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
