package dev.flow.internal;

import dev.flow.spi.AsyncSocketFactory;
import java.util.ServiceLoader;

/**
 * The {@link AsyncSocketFactory} behind {@code java.net.Socket}'s constructors in loaded code ({@link
 * Awaits#newSocket()}): the first service provider visible to Flow's class loader ({@code flow-mina-transport}'s
 * {@code FlowSocketFactory}, over its default connector), looked up on first use. Not copied into the loader:
 * one per process. Thread-safe.
 */
public final class DefaultSocketFactory {

    private static final AsyncSocketFactory INSTANCE = ServiceLoader
            .load(AsyncSocketFactory.class, AsyncSocketFactory.class.getClassLoader()).findFirst().orElse(null);

    private DefaultSocketFactory() {
    }

    /** The factory, or {@code null} if no provider is installed. */
    public static AsyncSocketFactory get() {
        return INSTANCE;
    }
}
