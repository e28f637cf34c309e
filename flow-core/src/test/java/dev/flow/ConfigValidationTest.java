package dev.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ConfigValidationTest {

    @Test
    void transportConfigHasDocumentedDefaults() {
        TransportConfig c = TransportConfig.DEFAULT;
        assertEquals(StandardCharsets.UTF_8, c.charset());
        assertEquals(8192, c.maxLineLength());
        assertEquals(Duration.ZERO, c.readTimeout());
        assertEquals(Duration.ZERO, c.writeTimeout());
        assertEquals(Duration.ZERO, c.lineTimeout());
        assertEquals(Duration.ZERO, c.idleTimeout());
        assertEquals(Duration.ZERO, c.requestTimeout());
        assertEquals(0, c.minRequestRate());
        assertEquals(LineTerminator.LF_OR_CRLF, c.lineTerminator());
        assertEquals("\n", c.lineSeparator());
        assertEquals(false, c.strictDecoding());
    }

    @Test
    void lineSeparatorMustBeLfOrCrLf() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TransportConfig.builder().lineSeparator("\r"));
        assertEquals("lineSeparator: \"\\r\" (expected: \"\\n\" or \"\\r\\n\")", e.getMessage());
        assertEquals("\r\n", TransportConfig.builder().lineSeparator("\r\n").build().lineSeparator());
    }

    @Test
    void lineAndIdleTimeoutsMustNotBeNegative() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TransportConfig.builder().lineTimeout(Duration.ofMillis(-1)));
        assertEquals("lineTimeout: PT-0.001S (expected: >= 0)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> TransportConfig.builder().idleTimeout(Duration.ofSeconds(-2)));
        assertEquals("idleTimeout: PT-2S (expected: >= 0)", e.getMessage());
    }

    @Test
    void requestTimeoutAndMinRequestRateMustNotBeNegative() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TransportConfig.builder().requestTimeout(Duration.ofSeconds(-1)));
        assertEquals("requestTimeout: PT-1S (expected: >= 0)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> TransportConfig.builder().minRequestRate(-1));
        assertEquals("minRequestRate: -1 (expected: >= 0)", e.getMessage());
    }

    @Test
    void maxLineLengthMustBePositive() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TransportConfig.builder().maxLineLength(0));
        assertEquals("maxLineLength: 0 (expected: > 0)", e.getMessage());
    }

    @Test
    void timeoutsMustNotBeNegative() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TransportConfig.builder().readTimeout(Duration.ofMillis(-1)));
        assertEquals("readTimeout: PT-0.001S (expected: >= 0)", e.getMessage());
    }

    @Test
    void toBuilderRoundTrips() {
        TransportConfig c = TransportConfig.builder().maxLineLength(10).writeTimeout(Duration.ofSeconds(2))
                .lineTerminator(LineTerminator.CRLF).lineSeparator("\r\n").strictDecoding(true)
                .lineTimeout(Duration.ofSeconds(3)).idleTimeout(Duration.ofSeconds(4))
                .requestTimeout(Duration.ofSeconds(5)).minRequestRate(100).build();
        TransportConfig d = c.toBuilder().build();
        assertEquals(c.toString(), d.toString());
    }

    @Test
    void afterPolicyNeedsAPositiveWait() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SuspendPolicy.after(Duration.ZERO));
        assertEquals("waitTime: PT0S (expected: > 0)", e.getMessage());
    }

    @Test
    void adaptivePolicyRangesAreChecked() {
        assertEquals("spins: -1 (expected: 0..1000000)",
                assertThrows(IllegalArgumentException.class, () -> SuspendPolicy.adaptive(-1, 0)).getMessage());
        assertEquals("yields: 1001 (expected: 0..1000)",
                assertThrows(IllegalArgumentException.class, () -> SuspendPolicy.adaptive(0, 1001)).getMessage());
        assertEquals("adaptive(64,2)", SuspendPolicy.adaptive().toString());
        assertEquals("after(1ms)", SuspendPolicy.after(Duration.ofMillis(1)).toString());
    }

    @Test
    void schedulerWorkersAreBounded() {
        assertEquals("workers: 0 (expected: 1..1024)",
                assertThrows(IllegalArgumentException.class, () -> FlowScheduler.builder().workers(0)).getMessage());
    }

    @Test
    void schedulerPinnedThreadsAreBounded() {
        assertEquals("maxPinnedThreads: -1 (expected: 0..32767)",
                assertThrows(IllegalArgumentException.class, () -> FlowScheduler.builder().maxPinnedThreads(-1)).getMessage());
        assertEquals("maxPinnedThreads: 32768 (expected: 0..32767)",
                assertThrows(IllegalArgumentException.class, () -> FlowScheduler.builder().maxPinnedThreads(32768)).getMessage());
    }

    @Test
    void lineTooLongNamesLengthAndLimit() {
        LineTooLongException e = new LineTooLongException(101, 100);
        assertEquals("line length: 101 (expected: <= maxLineLength 100)", e.getMessage());
    }
}
