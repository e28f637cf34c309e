package flowtest.statics;

/** Declares its own static {@code pause()}, which hides {@link Base#pause()}: another method. */
public class Hiding extends Base {
    public static String pause() {
        return "hiding";
    }
}
