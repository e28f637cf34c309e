package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.UnsuspendableFrameException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A strict refusal names the class, the method (the source method, not a bridge), the line and the
 * reason, for every kind of site: callbacks from JDK code into overrides and lambdas included, and the
 * blocking calls whose replacement reports them at their site (a {@code SynchronousQueue} hand-off, a
 * piped stream) or whose lock is contended.
 */
class PinSiteMessageTest {

    private static final String CALLBACK = "it is called back through an uninstrumented frame \\(a JDK or out-of-scope caller\\)";
    private static final ContinuationClassLoader STRICT =
            ContinuationClassLoader.builder().include("flowtest.conformance").strict(true).build();

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '#', value = {
        "dispatch.ForEachWithInScopeConsumer# dispatch\\.ForEachWithInScopeConsumer\\$Sum\\.accept\\(Ljava/lang/Integer;\\)V \\(line 16\\): CALLBACK",
        "dispatch.SortWithAwaitingComparator# dispatch\\.ComparatorThroughInterface\\$RemoteOrder\\.compare"
                + "\\(Ljava/lang/Integer;Ljava/lang/Integer;\\)I \\(line 16\\): CALLBACK",
        "dispatch.BufferedAwaitingStream# dispatch\\.AwaitingInputStream\\.read\\(\\)I \\(line 17\\): CALLBACK",
        "pins.CallbackAwaitsCompleted# pins\\.CallbackAwaitsCompleted\\.\\S+ \\(line 13\\): CALLBACK",
        "lambdas.JdkInterfaceLambdaHandedToJdkCode# lambdas\\.JdkInterfaceLambdaHandedToJdkCode\\.lambda\\$call\\$\\d+"
                + "\\(Ljava/lang/Integer;\\)Ljava/lang/Integer; \\(line 20\\): CALLBACK",
        "pins.ConstructorAwaitsCompleted# pins\\.ConstructorAwaitsCompleted\\$Greeting\\.<init>\\(\\)V \\(line 13\\): "
                + "constructors cannot be suspended",
        "pins.MonitorAwaitsCompleted# pins\\.MonitorAwaitsCompleted\\.call\\(\\)Ljava/lang/Object; \\(line 13\\): "
                + "a synchronized block holds a monitor",
        "pins.SynchronizedMethodAwaitsCompleted# pins\\.SynchronizedMethodAwaitsCompleted\\.locked\\(\\)Ljava/lang/String; "
                + "\\(line 10\\): a synchronized method holds its monitor",
        "primitives.SynchronousQueuePutToWaitingThread# primitives\\.SynchronousQueuePutToWaitingThread\\.call\\(\\)"
                + "Ljava/lang/Object; \\(line 15\\): BLOCKING",
        "primitives.SynchronousQueueOfferTimesOut# primitives\\.SynchronousQueueOfferTimesOut\\.call\\(\\)"
                + "Ljava/lang/Object; \\(line 13\\): BLOCKING",
        "primitives.PipedReadFromWritingThread# primitives\\.PipedReadFromWritingThread\\.call\\(\\)"
                + "Ljava/lang/Object; \\(line 22\\): BLOCKING",
        "primitives.PipedWriteToReadingThread# primitives\\.PipedWriteToReadingThread\\.call\\(\\)"
                + "Ljava/lang/Object; \\(line 18\\): BLOCKING",
        "primitives.PipedReadAllBytesFromWritingThread# primitives\\.PipedReadAllBytesFromWritingThread\\.call\\(\\)"
                + "Ljava/lang/Object; \\(line 23\\): BLOCKING",
        "primitives.PipedReadNBytesCountFromWritingThread# primitives\\.PipedReadNBytesCountFromWritingThread\\.call\\(\\)"
                + "Ljava/lang/Object; \\(line 22\\): BLOCKING",
        "primitives.PipedSkipNBytesFromWritingThread# primitives\\.PipedSkipNBytesFromWritingThread\\.call\\(\\)"
                + "Ljava/lang/Object; \\(line 24\\): BLOCKING",
        "primitives.PipedTransferToFromWritingThread# primitives\\.PipedTransferToFromWritingThread\\.call\\(\\)"
                + "Ljava/lang/Object; \\(line 25\\): BLOCKING",
        "primitives.PipedReaderFromWritingThread# primitives\\.PipedReaderFromWritingThread\\.call\\(\\)"
                + "Ljava/lang/Object; \\(line 22\\): BLOCKING",
        "primitives.PipedStreamThroughDataInputStream# primitives\\.PipedStreamThroughDataInputStream\\.call\\(\\)"
                + "Ljava/lang/Object; \\(line 23\\): BLOCKING",
        "primitives.PipedReaderThroughBufferedReader# primitives\\.PipedReaderThroughBufferedReader\\.call\\(\\)"
                + "Ljava/lang/Object; \\(line 22\\): BLOCKING",
        "primitives.PipedReaderReadyLoop# primitives\\.PipedReaderReadyLoop\\.call\\(\\)"
                + "Ljava/lang/Object; \\(line 29\\): BLOCKING",
        "primitives.PipedWriterToReadingThread# primitives\\.PipedWriterToReadingThread\\.call\\(\\)"
                + "Ljava/lang/Object; \\(line 23\\): BLOCKING",
        "primitives.ContendedForeignLock# primitives\\.ContendedForeignLock\\.call\\(\\)Ljava/lang/Object; \\(line 18\\): "
                + "the lock, made outside the loaded scope, is held by another thread and waiting for it blocks the thread",
        "primitives.ContendedForeignLockTimedTry# primitives\\.ContendedForeignLockTimedTry\\.call\\(\\)Ljava/lang/Object; "
                + "\\(line 17\\): the lock, made outside the loaded scope, is held by another thread and waiting for it blocks "
                + "the thread"})
    void strictRefusalNamesClassMethodLineAndReason(String fixture, String site) {
        ExecutionException e;
        try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("sites").build()) {
            FlowHandle<Object> h = s.submit(STRICT.newInstance(Callable.class, "flowtest.conformance." + fixture));
            e = assertThrows(ExecutionException.class, () -> h.get(Duration.ofSeconds(10)));
            TestSupport.awaitIdle(s);
        }
        Throwable cause = e.getCause();
        while (!(cause instanceof UnsuspendableFrameException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        assertInstanceOf(UnsuspendableFrameException.class, cause, () -> "refused: " + e.getCause());
        String message = cause.getMessage();
        String expected = "cannot suspend at flowtest\\.conformance\\." + site.replace("CALLBACK", CALLBACK)
                .replace("BLOCKING", "the call blocks its thread and has no suspendable form");
        assertTrue(Pattern.matches(expected, message), () -> message + "\n  expected: " + expected);
    }
}
