package flowtest.cycle;

/** Second class of the cycle X -> Y -> X, which never awaits. */
public final class LoopY {
    private LoopY() {
    }

    static int y(int n) {
        return LoopX.x(n);
    }
}
