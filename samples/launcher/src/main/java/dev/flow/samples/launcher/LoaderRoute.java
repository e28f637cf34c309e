package dev.flow.samples.launcher;

import dev.flow.loader.ContinuationClassLoader;

/**
 * The class-loader route of continuation mode, in a class of its own: {@link SampleServer} links to
 * flow-classloader only through it, so a sample instrumented by the agent or at build time runs with
 * flow-classloader (and ASM) absent from the class path. Stateless.
 */
final class LoaderRoute {

    private LoaderRoute() {
    }

    /**
     * A {@link ContinuationClassLoader} over {@code protocol}'s loaded packages, child of {@code parent},
     * strict if {@code strict}.
     */
    static ClassLoader loader(SampleProtocol protocol, ClassLoader parent, boolean strict) {
        return ContinuationClassLoader.builder()
                .include(protocol.loadedPackages().toArray(new String[0]))
                .parent(parent)
                .strict(strict)
                .build();
    }
}
