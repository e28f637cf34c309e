package dev.flow.internal;

import dev.flow.MemoryHold;

/** Holds of transports that count nothing. Stateless; thread-safe. */
public final class Holds {

    /** A hold that counts nothing: the one of transports without a memory bound. */
    public static final MemoryHold NONE = new MemoryHold() {
        @Override
        public long bytes() {
            return 0;
        }

        @Override
        public void close() {
        }

        @Override
        public String toString() {
            return "MemoryHold[none]";
        }
    };

    private Holds() {
    }
}
