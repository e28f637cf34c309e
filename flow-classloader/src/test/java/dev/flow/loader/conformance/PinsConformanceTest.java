package dev.flow.loader.conformance;

import java.util.stream.Stream;

/**
 * Awaits in frames that cannot be captured: whatever way the pinned stretch ends, normally or by an
 * exception, the flow is unpinned afterwards and its later awaits suspend (also in strict mode); and
 * strict mode refuses an await in such a frame by its site, even when the awaited future is already
 * complete and the await would not block.
 */
class PinsConformanceTest extends ConformanceSuite {

    @Override
    protected Stream<Case> cases() {
        String p = "flowtest.conformance.pins.";
        return Stream.of(
                Case.of(p + "ConstructorAwaitFails").suspends(),
                Case.of(p + "SuperArgumentAwaitFails").suspends(),
                Case.of(p + "StaticInitializerAwaitFails").suspends(),
                Case.of(p + "MonitorAwaitFails").suspends(),
                Case.of(p + "ReflectiveAwaitFails").suspends(),
                Case.of(p + "CallbackAwaitFails").suspends(),
                Case.of(p + "ConstructorAwaitsCompleted").pins("constructors cannot be suspended"),
                Case.of(p + "MonitorAwaitsCompleted").pins("a synchronized block holds a monitor"),
                Case.of(p + "SynchronizedMethodAwaitsCompleted").pins("a synchronized method holds its monitor"),
                Case.of(p + "CallbackAwaitsCompleted").pins("called back through an uninstrumented frame"),
                Case.of(p + "OverrideCalledBackAwaitsCompleted").pins("called back through an uninstrumented frame"),
                Case.of(p + "ReflectiveAwaitsCompleted").pins("reflective calls cannot be captured"));
    }
}
