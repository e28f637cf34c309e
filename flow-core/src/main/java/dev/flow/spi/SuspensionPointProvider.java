package dev.flow.spi;

import java.util.List;

/**
 * Contributes suspension points, found with {@link java.util.ServiceLoader}; the MINA module uses it
 * to make the {@code IoFuture} await family suspend.
 */
public interface SuspensionPointProvider {

    /** The suspension points this provider adds. */
    List<SuspensionPoint> suspensionPoints();
}
