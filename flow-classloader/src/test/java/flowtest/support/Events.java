package flowtest.support;

import java.util.ArrayList;
import java.util.List;

/** Test support outside the instrumented scope: an ordered log of events, for initialisation-order tests. */
public final class Events {

    private static final List<String> LOG = new ArrayList<>();

    private Events() {
    }

    /** Appends an event. */
    public static synchronized void add(String event) {
        LOG.add(event);
    }

    /** Returns the events logged so far and clears the log. */
    public static synchronized List<String> drain() {
        List<String> out = List.copyOf(LOG);
        LOG.clear();
        return out;
    }
}
