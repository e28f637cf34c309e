package dev.flow.loader.conformance;

import java.util.stream.Stream;

/**
 * The JVM's helpful {@code NullPointerException} messages ({@code Cannot invoke ... because ... is
 * null}) around rewritten calls are those of the code loaded normally, "because" part included:
 * the null returned by an awaited call (also a timed poll or get, whose result comes back through the
 * original call) as a receiver, thrown, dereferenced, unboxed or locked, and null locals and arrays
 * after or around an await. The shapes that lose the "because" part are {@code NullAcrossAwaitTest}'s.
 *
 * <p>The loaders include this category's package only: a call site of a method that some in-scope
 * class overrides with a suspendable body tests its receiver ({@code Dispatch}), and the JVM then
 * cannot name the source of a null result.
 */
class NullMessagesConformanceTest extends ConformanceSuite {

    @Override
    protected String scope() {
        return "flowtest.conformance.nullmessages";
    }

    @Override
    protected Stream<Case> cases() {
        return Stream.of("ReceiverIsReturnOfGet", "ReceiverIsReturnOfCompletableGet", "ReceiverIsReturnOfJoin",
                        "ThrowsReturnOfGet", "FieldOfReturnOfGet", "ArrayLoadFromReturnOfGet", "ArrayLengthOfNullLocal",
                        "UnboxingReturnOfGet", "UnboxingNullLocal", "SynchronizedOnReturnOfGet", "SynchronizedOnNullField",
                        "CallOnNullLocalAfterAwait", "ArrayStoreOfAwaitedIntoNullLocal", "FieldStoreOfAwaitedIntoNullLocal",
                        "CallOnNullFieldWithAwaitedArgument", "CallOnNullFieldChainWithAwaitedArgument",
                        "CallOnNullStaticWithAwaitedArgument", "CallOnNullArrayElementWithAwaitedArgument",
                        "ArrayStoreWithIndexChangedBeforeAwait", "CallOnNullLocalReassignedInArguments",
                        "ValuesAcrossAwaitsKeepTheirOrder",
                        "ReceiverIsReturnOfTimedPoll", "ReceiverIsReturnOfTimedPollFirst", "ReceiverIsReturnOfCompletionServicePoll",
                        "ReceiverIsReturnOfTimedGet", "ReceiverIsReturnOfGetPassedOn", "ReceiverIsReturnOfSuspendableMethod",
                        "FieldOfReturnOfTimedPoll", "FieldStoreIntoReturnOfGet",
                        "ArrayLengthOfReturnOfGet", "ArrayStoreIntoReturnOfGet", "UnboxingReturnOfTimedPoll", "UnboxingReturnOfJoin",
                        "SynchronizedOnReturnOfTimedPoll", "SynchronizedOnNullLocalAfterAwait", "ArrayLoadFromNullLocalAfterAwait",
                        "ArrayStoreIntoNullLocalAfterAwait", "ArrayStoreAtAwaitedIndex", "ArrayLoadAtAwaitedIndex",
                        "LongArrayStoreOfAwaitedIntoNullLocal", "ArrayStoreOfAwaitedIntoNullParameter", "ArrayStoreOfAwaitedIntoNullRow",
                        "ArrayStoreOfTakeInLoopIntoNullLocal", "ArrayLengthOfNullLocalInsideTry", "ThrowsReturnOfTimedPoll",
                        "ThrowsReturnOfJoin", "ThrowsReturnOfSuspendableMethod", "ThrowsNullLocalAfterAwait", "ThrowsReturnOfTimedGet",
                        "ReceiverIsReturnOfGetAcrossAnotherAwait", "ReceiverIsReturnOfPlainCallAcrossAwait", "FieldOfPlainCallAcrossAwait",
                        "ArrayStoreIntoPlainCallAcrossAwait", "CallWithStringBufferArgumentOnPlainCallAcrossAwait",
                        "CallOnReturnOfJoinAcrossAwaitedArguments", "CallOnInstanceCallResultAcrossAwait",
                        "CallResultAcrossAwaitWhenNotNull")
                .map(n -> Case.of("flowtest.conformance.nullmessages." + n).suspends());
    }
}
