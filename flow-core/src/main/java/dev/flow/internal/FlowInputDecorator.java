package dev.flow.internal;

/**
 * One of Flow's input decorators ({@code dev.flow.jdk}'s buffered, data and pushback streams and readers, and the
 * loader's copies of them): it says what it reads from, so that a {@code java.util.Scanner} made over it, which
 * reads it inside the JDK's frames, can be reported where it is made when a source under it waits ({@link
 * Polling#scannerSource(Object, int)}).
 */
public interface FlowInputDecorator {

    /** The stream or reader this decorator reads from; {@code null} once it is closed, if closing drops it. */
    Object flowSource();
}
