package dev.flow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * #18: the byte-level reads of a user transport that implements only {@link Transport}'s abstract
 * methods (the interface's defaults read one byte at a time, so nothing past the line or body is
 * consumed), and the defaults of {@code deadline}, {@code flushIfNoInput} and {@code recordOutcome}.
 */
class TransportDefaultMethodsTest {

    private static ArrayTransport minimal(String ascii) {
        return new ArrayTransport(ascii.getBytes(StandardCharsets.ISO_8859_1), 1);
    }

    @Test
    void readLineBytesReportsEndingsAndConsumesNothingPastTheLine() throws Exception {
        ArrayTransport t = minimal("a\r\nb\nrest");
        assertEquals(LineEnding.CRLF, t.readLineBytes(LineTerminator.LF_OR_CRLF, 10).ending());
        Line b = t.readLineBytes(LineTerminator.LF_OR_CRLF, 10);
        assertEquals("b", b.text(StandardCharsets.US_ASCII));
        assertEquals(LineEnding.LF, b.ending());
        assertEquals(new Line("rest".getBytes(StandardCharsets.US_ASCII), 0, 4, LineEnding.END_OF_STREAM),
                t.readLineBytes(), "the bytes after the line were left unread");
        assertNull(t.readLineBytes());
    }

    @Test
    void readLineBytesFailsOnALineOverTheLimit() {
        ArrayTransport t = minimal("123456789\r\n");
        LineTooLongException e = assertThrows(LineTooLongException.class,
                () -> t.readLineBytes(LineTerminator.CRLF, 5));
        assertEquals(5, e.limit());
    }

    @Test
    void readDotBodyUnstuffsAndStopsAfterTheFinalDot() throws Exception {
        ArrayTransport t = minimal("..a\r\nb\r\n.\r\nNEXT");
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        assertEquals(7, t.readDotBody(sink, 100));
        assertEquals(".a\r\nb\r\n", sink.toString(StandardCharsets.US_ASCII));
        assertArrayEquals("NEXT".getBytes(StandardCharsets.US_ASCII), t.readFully(4), "nothing past the body was read");
    }

    @Test
    void readDotBodyOfMoreThanAChunkReachesTheSinkWhole() throws Exception {
        StringBuilder body = new StringBuilder();
        while (body.length() < 20_000) {
            body.append(".x").append(body.length()).append("\r\n");
        }
        String unstuffed = body.toString().replace("\r\n.", "\r\n").substring(1);
        ArrayTransport t = minimal(body + ".\r\n");
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        assertEquals(unstuffed.length(), t.readDotBody(sink, Long.MAX_VALUE));
        assertEquals(unstuffed, sink.toString(StandardCharsets.US_ASCII));
    }

    @Test
    void readDotBodyOverTheLimitAndAtEndOfStream() {
        ArrayTransport big = minimal("0123456789\r\n.\r\n");
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        BodyTooLargeException e = assertThrows(BodyTooLargeException.class, () -> big.readDotBody(sink, 4));
        assertEquals(12, e.size());
        assertEquals(4, e.limit());
        assertArrayEquals("0123".getBytes(StandardCharsets.US_ASCII), sink.toByteArray());
        assertEquals(0, big.available(), "the whole body was read");
        EOFException eof = assertThrows(EOFException.class,
                () -> minimal("abc").readDotBody(new ByteArrayOutputStream(), 100));
        assertTrue(eof.getMessage().contains("dot-terminated body after 3 bytes"), eof.getMessage());
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> minimal("").readDotBody(new ByteArrayOutputStream(), -1));
        assertEquals("maxBytes: -1 (expected: >= 0)", negative.getMessage());
    }

    @Test
    void deadlineIsUnsupportedByDefaultNamingTheClass() {
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> minimal("").deadline(Duration.ofSeconds(1)));
        assertTrue(e.getMessage().contains(ArrayTransport.class.getName()), e.getMessage());
    }

    @Test
    void flushIfNoInputFlushesOnlyWithNothingBuffered() throws Exception {
        ArrayTransport t = minimal("x");
        assertFalse(t.flushIfNoInput());
        assertEquals(0, t.flushes());
        t.read(new byte[1], 0, 1);
        assertTrue(t.flushIfNoInput());
        assertEquals(1, t.flushes());
        t.recordOutcome(SessionOutcome.TIMED_OUT); // the default does nothing, and does not throw
    }
}
