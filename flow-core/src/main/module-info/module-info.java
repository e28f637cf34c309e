/**
 * Flow's API and runtime: transports, {@code Flow.await}, suspend policies, the scheduler and flow-local values.
 *
 * <p>{@code dev.flow.internal} is exported only to Flow's own modules; a {@code ContinuationClassLoader} exports
 * it to the unnamed module of the classes it instruments, whose rewritten code calls it. {@code jdk.jfr} is
 * optional: without it, Flow records no JFR event.
 */
module dev.flow.core {
    requires transitive net.tascalate.javaflow.api;
    requires org.slf4j;
    requires static jdk.jfr;

    exports dev.flow;
    exports dev.flow.jdk;
    exports dev.flow.spi;
    exports dev.flow.internal to dev.flow.loader, dev.flow.mina;

    uses dev.flow.spi.AwaitableAdapter;
    uses org.slf4j.spi.SLF4JServiceProvider;
}
