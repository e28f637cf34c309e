package dev.flow.internal;

import java.util.concurrent.CompletableFuture;

/**
 * The result of one flow, which knows its flow: a {@code FlowHandle} holds only this (a plain
 * {@code CompletableFuture} has room for the extra field, so it costs nothing). Only the scheduler
 * completes it; the flow's own state does not expose it, so code inside the flow cannot reach it.
 * Thread-safe.
 */
public final class FlowResult extends CompletableFuture<Object> {

    private final FlowState flow;

    FlowResult(FlowState flow) {
        this.flow = flow;
    }

    /** The flow this is the result of. */
    public FlowState flow() {
        return flow;
    }
}
