package flowtest.handlers;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** How handler flows ended, for the tests. Holds no flow state: plain static list. */
public final class Outcomes {
    private static final List<String> ENDINGS = new CopyOnWriteArrayList<>();

    private Outcomes() {
    }

    static void record(String s) {
        ENDINGS.add(s);
    }

    public static List<String> endings() {
        return List.copyOf(ENDINGS);
    }

    public static void clear() {
        ENDINGS.clear();
    }
}
