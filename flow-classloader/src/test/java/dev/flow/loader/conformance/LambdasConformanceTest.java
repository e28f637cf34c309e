package dev.flow.loader.conformance;

import java.util.stream.Stream;

/**
 * Lambdas and method references: every rule of {@code LambdaMetafactory} (receiver kinds, private and
 * nestmate targets with {@code invokespecial} semantics, boxing/unboxing/widening, varargs, bridges,
 * markers, serializable lambdas, identity) holds through the loader, and blocking method references
 * handed to JDK code pin like the lambda form.
 */
class LambdasConformanceTest extends ConformanceSuite {

    private static final String CALLBACK = "called back through an uninstrumented frame";

    @Override
    protected Stream<Case> cases() {
        String p = "flowtest.conformance.lambdas.";
        return Stream.of(
                Case.of(p + "PureLambdas"),
                Case.of(p + "PrivateLambdaBodyIsNotOverridden"),
                Case.of(p + "PrivateLambdaBodyIsNotOverriddenAwaiting").suspends(),
                Case.of(p + "PrivateMethodReferenceIsNotOverridden").suspends(),
                Case.of(p + "PrivateMethodShadowingDefault").suspends(),
                Case.of(p + "NestmatePrivateReferencesAwaiting").suspends(),
                Case.of(p + "UnboxingAndWideningAwaiting").suspends(),
                Case.of(p + "NullsAndWrongTypes").suspends(),
                Case.of(p + "ReceiverKinds"),
                Case.of(p + "ReceiverKindsAwaiting").suspends(),
                Case.of(p + "InterfaceMethodReferences").suspends(),
                Case.of(p + "VarargsReferences").suspends(),
                Case.of(p + "BridgesAndMarkers").suspends(),
                Case.of(p + "SerializableLambdas"),
                Case.of(p + "SerializableLambdaAwaiting").pins(CALLBACK),
                Case.of(p + "SerializableMethodReferenceAwaiting").pins(CALLBACK),
                Case.of(p + "ProtectedReferencesAcrossPackages").suspends(),
                Case.of(p + "CapturedWideValues").suspends(),
                Case.of(p + "LambdasInInitializers").suspends(),
                Case.of(p + "LambdaIdentity").suspends(),
                Case.of(p + "ExceptionsThroughLambdas").suspends(),
                Case.of(p + "BlockingReferenceOnInScopeInterface").suspends(),
                Case.of(p + "BlockingReferenceInStream").pins(CALLBACK),
                Case.of(p + "FlowAwaitReferenceInStream").pins(CALLBACK),
                Case.of(p + "BlockingReferenceInForEach").pins(CALLBACK),
                Case.of(p + "BlockingReferenceToLaterFutures").pins(CALLBACK),
                Case.of(p + "JdkInterfaceLambdasAwaiting").suspends(),
                Case.of(p + "JdkInterfaceLambdaHandedToJdkCode").pins(CALLBACK),
                Case.of(p + "AwaitingLambdaOnAnotherThread").suspends());
    }
}
