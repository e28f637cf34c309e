package dev.flow.internal;

import dev.flow.Line;
import dev.flow.LineTerminator;
import dev.flow.Transport;
import dev.flow.spi.AsyncTransport;
import dev.flow.spi.ByteScanner;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Objects;

/**
 * The byte-level reads of a {@link Transport} that does not implement them itself (the interface's
 * default methods): an {@link AsyncTransport} goes through Flow's loops ({@link Awaits}, blocking);
 * any other transport is read one byte at a time through {@link Transport#read(byte[], int, int)}, so
 * that nothing past the line or body is consumed. Runs on the caller's thread.
 */
public final class Scans {

    private Scans() {
    }

    /** {@code Transport.readLineBytes(LineTerminator, int)} for a transport that does not override it. */
    public static Line readLineBytes(Transport t, LineTerminator terminator, int maxBytes) throws IOException {
        if (t instanceof AsyncTransport) {
            return Awaits.readLineBytes((AsyncTransport) t, terminator, maxBytes, false);
        }
        LineScanner scanner = new LineScanner(terminator, maxBytes);
        byteAtATime(t, scanner);
        return scanner.line();
    }

    /** {@code Transport.readDotBody(OutputStream, long)} for a transport that does not override it. */
    public static long readDotBody(Transport t, OutputStream sink, long maxBytes) throws IOException {
        Objects.requireNonNull(sink, "sink");
        if (t instanceof AsyncTransport) {
            return Awaits.readDotBody((AsyncTransport) t, sink, maxBytes, false);
        }
        DotBodyScanner scanner = new DotBodyScanner(maxBytes);
        byte[] pending = new byte[1];
        for (;;) {
            int r = t.read(pending, 0, 1);
            if (r < 0) {
                scanner.drainTo(sink);
                throw Awaits.dotBodyEnded(t, scanner);
            }
            if (r == 0) {
                continue;
            }
            if (scanner.scan(pending, 0, 1, false) == 0) {
                // The chunk is full: hand it over, then the byte fits.
                scanner.drainTo(sink);
                scanner.scan(pending, 0, 1, false);
            }
            if (scanner.done()) {
                scanner.drainTo(sink);
                return Awaits.dotBodyResult(scanner);
            }
        }
    }

    /**
     * Feeds {@code scanner} the input of {@code t} one byte at a time until it consumes something (a
     * line scanner consumes only a complete line) or the stream ends.
     */
    private static void byteAtATime(Transport t, ByteScanner scanner) throws IOException {
        byte[] pending = new byte[64];
        int size = 0;
        byte[] one = new byte[1];
        for (;;) {
            int r = t.read(one, 0, 1);
            if (r < 0) {
                scanner.scan(pending, 0, size, true);
                return;
            }
            if (r == 0) {
                continue;
            }
            if (size == pending.length) {
                pending = Arrays.copyOf(pending, size * 2);
            }
            pending[size++] = one[0];
            if (scanner.scan(pending, 0, size, false) > 0) {
                return;
            }
        }
    }
}
