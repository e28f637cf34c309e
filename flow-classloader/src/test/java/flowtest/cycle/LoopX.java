package flowtest.cycle;

/** A cycle of calls (X -> Y -> X) that reaches no suspension point. */
public final class LoopX {
    private LoopX() {
    }

    static int x(int n) {
        return n <= 0 ? 0 : LoopY.y(n - 1) + 1;
    }
}
