package dev.flow.loader.conformance;

import java.util.stream.Stream;

/**
 * In-scope implementations of JDK interfaces and abstract JDK classes: called from in-scope code they
 * suspend; called back by a JDK frame they pin.
 */
class DispatchConformanceTest extends ConformanceSuite {

    private static final String CALLBACK = "called back through an uninstrumented frame";

    @Override
    protected Stream<Case> cases() {
        String p = "flowtest.conformance.dispatch.";
        return Stream.of(
                Case.of(p + "EnhancedForOverIterable").suspends(),
                Case.of(p + "AwaitingHasNext").suspends(),
                Case.of(p + "CallableThroughInterface").suspends(),
                Case.of(p + "RunnableThroughInterface").suspends(),
                Case.of(p + "SupplierThroughInterface").suspends(),
                Case.of(p + "FunctionThroughInterface").suspends(),
                Case.of(p + "ComparatorThroughInterface").suspends(),
                Case.of(p + "InputStreamReadDirectly").suspends(),
                Case.of(p + "AbstractListGet").suspends(),
                Case.of(p + "AbstractBaseReceiver").suspends(),
                Case.of(p + "WideArguments").suspends(),
                Case.of(p + "FailureThroughInterface").suspends(),
                Case.of(p + "NullReceiver").suspends(),
                Case.of(p + "InScopeFutureGet").suspends(),
                Case.of(p + "DefaultMethodThroughInterface").suspends(),
                Case.of(p + "DispatchInsideMonitor").pins("a synchronized block holds a monitor"),
                Case.of(p + "DispatchInsideConstructor").pins("constructors cannot be suspended"),
                Case.of(p + "DispatchInSuperArgument").pins("constructors cannot be suspended"),
                Case.of(p + "ForEachWithInScopeConsumer").pins(CALLBACK),
                Case.of(p + "SortWithAwaitingComparator").pins(CALLBACK),
                Case.of(p + "BufferedAwaitingStream").pins(CALLBACK));
    }
}
