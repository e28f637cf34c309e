package dev.flow.loader.conformance;

import java.util.stream.Stream;

/**
 * Blocking JDK primitives in flows: those with a way to test without blocking (queues and deques,
 * latches, semaphores, phasers, stamped locks) suspend, even when the other side is a sibling flow on the same single worker; those
 * without one ({@code Object.wait}, barriers) are reported and refused in strict mode.
 */
class PrimitivesConformanceTest extends ConformanceSuite {

    @Override
    protected Stream<Case> cases() {
        String p = "flowtest.conformance.primitives.";
        String blocking = "has no suspendable form";
        return Stream.of(
                Case.of(p + "PollFromSiblingFlow").suspends(),
                Case.of(p + "OfferToSiblingConsumer").suspends(),
                Case.of(p + "TakeFromOtherThread").suspends(),
                Case.of(p + "PutIntoFullQueue").suspends(),
                Case.of(p + "PollTimesOut").suspends(),
                Case.of(p + "OfferTimesOut").suspends(),
                Case.of(p + "TimedWaitsOfOneNanosecond").suspends(),
                Case.of(p + "LatchFromSiblingFlows").suspends(),
                Case.of(p + "LatchAwaitFromOtherThread").suspends(),
                Case.of(p + "LatchAwaitTimesOut").suspends(),
                Case.of(p + "SemaphoreFromSiblingFlow").suspends(),
                Case.of(p + "SemaphoreAcquireFromOtherThread").suspends(),
                Case.of(p + "SemaphoreTryAcquireTimesOut").suspends(),
                Case.of(p + "PhaserWithSiblingFlow").suspends(),
                Case.of(p + "CompletionServiceTake").suspends(),
                Case.of(p + "ExecutorAwaitTermination").suspends(),
                Case.of(p + "ForkJoinTaskJoin").suspends(),
                Case.of(p + "ThreadJoin").suspends(),
                Case.of(p + "InterruptedWaits"),
                Case.of(p + "DequeWithSiblingFlow").suspends(),
                Case.of(p + "PutIntoFullDeque").suspends(),
                Case.of(p + "DequeWaitsTimeOut").suspends(),
                Case.of(p + "StampedLockWithSiblingFlow").suspends(),
                Case.of(p + "StampedLockWaitsTimeOut").suspends(),
                Case.of(p + "ForkJoinTaskQuietlyJoin").suspends(),
                Case.of(p + "ProcessWaitFor").suspends(),
                Case.of(p + "TimeUnitSleepAndTimedJoin").suspends(),
                Case.of(p + "ObjectWaitInSynchronized").pins(blocking),
                Case.of(p + "CyclicBarrierOfOne").pins(blocking),
                Case.of(p + "TransferToWaitingThread").pins(blocking),
                Case.of(p + "TryTransferTimesOut").pins(blocking),
                Case.of(p + "InvokeAllOnPool").pins(blocking),
                Case.of(p + "InvokeAnyOnPool").pins(blocking),
                Case.of(p + "ForkJoinPoolInvoke").pins(blocking),
                Case.of(p + "SubmissionPublisherSubmit").pins(blocking),
                Case.of(p + "LockSupportParkNanos").pins(blocking),
                Case.of(p + "ReferenceQueueRemoveTimesOut").pins(blocking),
                Case.of(p + "TimeUnitTimedWait").pins(blocking),
                Case.of(p + "SynchronizerAcquire").pins(blocking),
                Case.of(p + "FileChannelLock").pins(blocking),
                Case.of(p + "ChannelGroupAwaitTermination").pins(blocking),
                Case.of(p + "SynchronousQueuePutToWaitingThread").pins(blocking),
                Case.of(p + "SynchronousQueueOfferTimesOut").pins(blocking),
                Case.of(p + "PipedReadFromWritingThread").pins(blocking),
                Case.of(p + "PipedWriteToReadingThread").pins(blocking),
                Case.of(p + "PipedReadAllBytesFromWritingThread").pins(blocking),
                Case.of(p + "PipedReadNBytesCountFromWritingThread").pins(blocking),
                Case.of(p + "PipedSkipNBytesFromWritingThread").pins(blocking),
                Case.of(p + "PipedTransferToFromWritingThread").pins(blocking),
                Case.of(p + "PipedReaderFromWritingThread").pins(blocking),
                Case.of(p + "PipedReaderReadyLoop").pins(blocking),
                Case.of(p + "PipedWriterToReadingThread").pins(blocking),
                Case.of(p + "PipedReaderThroughBufferedReader").pins("PipedReaderThroughBufferedReader.call()Ljava/lang/Object; "
                        + "(line 22): the call blocks its thread and " + blocking),
                Case.of(p + "PipedStreamThroughDataInputStream").pins("PipedStreamThroughDataInputStream.call()"
                        + "Ljava/lang/Object; (line 23): the call blocks its thread and " + blocking),
                Case.of(p + "JdkSocketReadFromWritingThread").pins(blocking),
                Case.of(p + "JdkSocketWriteToReadingThread").pins(blocking),
                Case.of(p + "JdkSocketReadAllBytesFromWritingThread").pins(blocking),
                Case.of(p + "JdkSocketThroughBufferedReader").pins("JdkSocketThroughBufferedReader.call()Ljava/lang/Object; "
                        + "(line 20): the call blocks its thread and " + blocking),
                Case.of(p + "ProcessStreamsThroughCat").pins(blocking),
                Case.of(p + "ProcessErrorStreamRead").pins(blocking),
                Case.of(p + "SystemInRead").pins(blocking),
                Case.of(p + "ServerSocketAcceptQueued").pins(blocking),
                Case.of(p + "DatagramReceiveQueued").pins(blocking),
                Case.of(p + "SelectorSelectTimesOut").pins(blocking),
                Case.of(p + "ContendedForeignLock").pins("is held by another thread"),
                Case.of(p + "ContendedForeignLockTimedTry").pins("is held by another thread"),
                Case.of(p + "UncontendedForeignLock").suspends());
    }
}
