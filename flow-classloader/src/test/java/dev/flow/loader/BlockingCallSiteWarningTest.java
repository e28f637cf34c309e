package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.internal.Pins;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * In lenient mode, a blocking call whose replacement reports it at its site (a {@code SynchronousQueue}
 * hand-off, a piped stream, reader or writer) and a contended acquisition of a lock made outside the scope block the worker
 * with one warning per site, naming class, method and line, however often the site runs.
 */
class BlockingCallSiteWarningTest {

    private static final ContinuationClassLoader LENIENT =
            ContinuationClassLoader.builder().include("flowtest.conformance.primitives").build();

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '#', value = {
        "SynchronousQueuePutToWaitingThread# 15# put, taken x",
        "SynchronousQueueOfferTimesOut# 13# offered false",
        "PipedReadFromWritingThread# 22# 2 bytes 78, then -1, written",
        "PipedWriteToReadingThread# 18# read 10",
        "PipedReadAllBytesFromWritingThread# 23# [1, 2, 3], written",
        "PipedReadNBytesCountFromWritingThread# 22# [4, 5, 6], written",
        "PipedSkipNBytesFromWritingThread# 24# EOF null, written",
        "PipedTransferToFromWritingThread# 25# 2 [9, 8], written",
        "PipedReaderFromWritingThread# 22# h+ello, written",
        "PipedReaderReadyLoop# 29# 2 ab skipped 2, written",
        "PipedWriterToReadingThread# 23# read 0123456789abcd",
        "ContendedForeignLock# 18# locked after the holder",
        "ContendedForeignLockTimedTry# 17# acquired after the holder"})
    void aBlockingSiteWarnsOnceNamingClassMethodAndLine(String fixture, int line, String result) throws Exception {
        String site = "cannot suspend at flowtest.conformance.primitives." + fixture + ".call()Ljava/lang/Object; (line "
                + line + "): ";
        try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("warn").build()) {
            for (int run = 0; run < 3; run++) {
                Object value = s.submit(LENIENT.newInstance(Callable.class, "flowtest.conformance.primitives." + fixture))
                        .get(Duration.ofSeconds(10));
                assertEquals(result, value);
            }
            TestSupport.awaitIdle(s);
        }
        List<String> warnings = Pins.warnings().stream().filter(w -> w.startsWith(site)).collect(Collectors.toList());
        assertEquals(1, warnings.size(), () -> "warnings of " + site + ": " + Pins.warnings());
    }
}
