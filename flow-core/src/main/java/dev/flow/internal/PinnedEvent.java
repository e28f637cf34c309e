package dev.flow.internal;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/** JFR event {@code dev.flow.Pinned}: a flow's wait blocked its worker thread. Committed by its thread. */
@Name("dev.flow.Pinned")
@Label("Flow Pinned")
@Category("Flow")
@Description("A flow could not suspend and its wait blocked the worker thread")
@Threshold("20 ms")
@StackTrace(true)
final class PinnedEvent extends jdk.jfr.Event {
    /** The frame that pinned the flow, in stack-trace style. */
    @Label("Site")
    @Description("The frame that pinned the flow: class.method(File:line)")
    String site;

    /** Why that frame cannot suspend. */
    @Label("Reason")
    String reason;
}
