package dev.flow.internal;

/**
 * Marks a lock owned by the flow that takes it rather than by a thread ({@code dev.flow.jdk}'s locks):
 * {@link Locks} does not record its holds, since holding it does not pin the flow.
 */
public interface FlowOwnedLock {
}
