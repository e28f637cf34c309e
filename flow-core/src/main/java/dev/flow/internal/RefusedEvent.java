package dev.flow.internal;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR event {@code dev.flow.Refused}: a strict refusal, at run time ({@code UnsuspendableFrameException})
 * or when a class is loaded ({@code InstrumentationException}). Committed by the refusing thread.
 */
@Name("dev.flow.Refused")
@Label("Flow Refused")
@Category("Flow")
@Description("Strict mode refused a suspension or a class it cannot make suspendable")
@StackTrace(true)
final class RefusedEvent extends jdk.jfr.Event {
    /** The refused frame, in stack-trace style, or the class. */
    @Label("Site")
    @Description("The refused frame: class.method(File:line), or the class")
    String site;

    /** Why it was refused. */
    @Label("Reason")
    String reason;
}
