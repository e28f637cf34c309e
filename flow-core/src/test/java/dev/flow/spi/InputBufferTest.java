package dev.flow.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.LineTerminator;
import dev.flow.LineTooLongException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class InputBufferTest {

    private static InputBuffer buffer(String content) {
        InputBuffer b = new InputBuffer(StandardCharsets.UTF_8, false, "test");
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        b.append(bytes, 0, bytes.length);
        return b;
    }

    @Test
    void switchingTerminatorsBetweenPollsFindsALineFeedAlreadyScannedPast() throws Exception {
        InputBuffer b = buffer("a\nb");
        assertNull(b.pollLine(LineTerminator.CRLF, 100, false));
        assertEquals("a", b.pollLine(LineTerminator.LF_OR_CRLF, 100, false));
        assertNull(b.pollLine(LineTerminator.LF_OR_CRLF, 100, false));
        assertEquals("b", b.pollLine(LineTerminator.CRLF, 100, true));
    }

    @Test
    void crlfKeepsATrailingCarriageReturnAtEndOfStreamAndLfOrCrlfDropsIt() throws Exception {
        assertEquals("x\r", buffer("x\r").pollLine(LineTerminator.CRLF, 100, true));
        assertEquals("x", buffer("x\r").pollLine(LineTerminator.LF_OR_CRLF, 100, true));
    }

    @Test
    void aPartialLineCountedOnceThenExtendedIsCountedOnlyForItsNewBytes() throws Exception {
        InputBuffer b = buffer("\u20ac".repeat(10));
        assertNull(b.pollLine(LineTerminator.LF_OR_CRLF, 10, false));
        long first = b.decodedBytes();
        assertEquals(30, first);
        byte[] more = "\u20ac".getBytes(StandardCharsets.UTF_8);
        b.append(more, 0, 2); // a partial character: counted once complete
        assertNull(b.pollLine(LineTerminator.LF_OR_CRLF, 10, false));
        b.append(more, 2, 1);
        LineTooLongException e = assertThrows(LineTooLongException.class,
                () -> b.pollLine(LineTerminator.LF_OR_CRLF, 10, false));
        assertEquals(11, e.length());
        assertTrue(b.decodedBytes() <= 33, "decoded " + b.decodedBytes());
    }

    @Test
    void maxLengthMustBePositive() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> buffer("a\n").pollLine(LineTerminator.CRLF, 0, false));
        assertEquals("maxLength: 0 (expected: > 0)", e.getMessage());
    }
    @Test
    void scanConsumesWhatTheScannerAcceptsAndOffersTheRestAgainAfterNewBytes() throws Exception {
        InputBuffer b = buffer("abc");
        StringBuilder seen = new StringBuilder();
        ByteScanner firstTwo = (buf, off, len, end) -> {
            seen.append(new String(buf, off, len, StandardCharsets.US_ASCII)).append('|');
            return Math.min(2, len);
        };
        assertEquals(2, b.scan(firstTwo, false));
        b.append("de".getBytes(StandardCharsets.US_ASCII), 0, 2);
        assertEquals(2, b.scan(firstTwo, false));
        assertEquals("abc|cde|", seen.toString());
        assertEquals(1, b.size());
        assertEquals(0, buffer("").scan(firstTwo, false), "not called with nothing buffered");
        assertEquals("abc|cde|", seen.toString());
    }

    @Test
    void aScannerFailingALineFailsTheBufferAndAScannerOverconsumingIsRefused() throws Exception {
        InputBuffer b = buffer("0123456789");
        assertThrows(LineTooLongException.class, () -> b.scan((buf, off, len, end) -> {
            throw new LineTooLongException(len, 5);
        }, false));
        assertTrue(b.failed());
        assertThrows(LineTooLongException.class, () -> b.read(new byte[1], 0, 1));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> buffer("ab").scan((buf, off, len, end) -> len + 1, false));
        assertEquals("scanner consumed 3 bytes (expected: 0 to 2)", e.getMessage());
    }
}
