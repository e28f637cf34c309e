package dev.flow;

import java.time.Duration;

/**
 * A deadline set on a transport's reads by {@link Transport#deadline(Duration)}; closing it removes it
 * (and restores the deadline that was set before, if any). Close it in a try-with-resources block
 * around the reads it bounds. Belongs to the flow or thread that uses the transport; not thread-safe.
 */
public interface Deadline extends AutoCloseable {

    /** The timeout the deadline was set with. */
    Duration timeout();

    /** The time left before the deadline: {@link Duration#ZERO} once it has passed. */
    Duration remaining();

    /** Removes this deadline from its transport; a second call does nothing. Never blocks. */
    @Override
    void close();
}
