package dev.flow.loader.internal;

import dev.flow.internal.FlowEvents;
import dev.flow.loader.InstrumentationException;

/** Records load-time refusals as {@code dev.flow.Refused} JFR events. Stateless and thread-safe. */
public final class Refusals {

    private Refusals() {
    }

    /**
     * Records {@code e} as a {@code dev.flow.Refused} event (when a recording enables it) and returns it, for the
     * caller to throw: its site is {@code com.example.Foo.bar(Foo.java)}, or the class when the refusal is not
     * one method's.
     */
    public static InstrumentationException recorded(InstrumentationException e) {
        String method = e.methodName();
        String site = method == null || method.isEmpty() ? e.className() : FlowEvents.frame(e.className(), method, 0);
        FlowEvents.refused(site, e.reason());
        return e;
    }
}
