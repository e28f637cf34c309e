/**
 * The {@code ContinuationClassLoader}: finds suspension points, infers suspendable methods and instruments them
 * with ASM and JavaFlow's enhancer. {@code dev.flow.loader.internal} is not exported.
 */
module dev.flow.loader {
    requires transitive dev.flow.core;
    requires net.tascalate.javaflow.spi;
    requires net.tascalate.javaflow.providers.core;
    requires net.tascalate.asmx.plus;
    requires org.objectweb.asm;
    requires org.objectweb.asm.tree;
    requires org.objectweb.asm.tree.analysis;
    requires org.slf4j;

    exports dev.flow.loader;

    uses dev.flow.spi.SuspensionPointProvider;
}
