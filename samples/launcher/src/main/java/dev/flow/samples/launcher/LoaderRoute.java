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

    /** A lenient {@link ContinuationClassLoader} over {@code protocol}'s loaded packages, child of {@code parent}. */
    static ClassLoader loader(SampleProtocol protocol, ClassLoader parent) {
        return ContinuationClassLoader.builder()
                .include(protocol.loadedPackages().toArray(new String[0]))
                .parent(parent)
                .strict(false)
                .build();
    }
}
