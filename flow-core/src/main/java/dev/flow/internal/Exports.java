package dev.flow.internal;

/**
 * Opens Flow's runtime to instrumented code when Flow runs as named modules: {@code dev.flow.internal} is exported
 * only to Flow's modules, and each of them hands it on to the unnamed module of the code it instruments, whose
 * rewritten calls land here. On the class path it does nothing. Stateless and thread-safe.
 */
public final class Exports {

    private Exports() {
    }

    /** Exports {@code dev.flow.internal} to the unnamed module of {@code loader}, if Flow is a named module. */
    public static void toUnnamedModuleOf(ClassLoader loader) {
        Module core = Exports.class.getModule();
        if (core.isNamed()) {
            core.addExports(Exports.class.getPackageName(), loader.getUnnamedModule());
        }
    }
}
