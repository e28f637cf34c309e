package dev.flow;

import java.nio.charset.Charset;
import java.util.Arrays;
import java.util.Objects;

/**
 * One line read as bytes by {@link Transport#readLineBytes(LineTerminator, int)}: its content exactly
 * as received, without the terminator, and what ended it. Immutable and thread-safe.
 */
public final class Line {

    private final byte[] bytes;
    private final LineEnding ending;

    /**
     * Creates a line holding a copy of {@code len} bytes of {@code src} from {@code off}.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code src}
     */
    public Line(byte[] src, int off, int len, LineEnding ending) {
        Objects.checkFromIndexSize(off, len, src.length);
        this.bytes = Arrays.copyOfRange(src, off, off + len);
        this.ending = Objects.requireNonNull(ending, "ending");
    }

    /** A copy of the line's bytes, without its terminator. */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The number of bytes in the line, without its terminator. */
    public int length() {
        return bytes.length;
    }

    /**
     * The byte at {@code index}, as an unsigned value (0 to 255).
     *
     * @throws IndexOutOfBoundsException if {@code index} is not in {@code [0, length())}
     */
    public int byteAt(int index) {
        Objects.checkIndex(index, bytes.length);
        return bytes[index] & 0xff;
    }

    /** What ended the line: {@link LineEnding#CRLF}, a bare {@link LineEnding#LF} or {@link LineEnding#END_OF_STREAM}. */
    public LineEnding ending() {
        return ending;
    }

    /** The line decoded with {@code charset}; malformed input becomes U+FFFD. */
    public String text(Charset charset) {
        return new String(bytes, charset);
    }

    /** Whether the lines have the same bytes and ending. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Line && ((Line) o).ending == ending && Arrays.equals(((Line) o).bytes, bytes);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(bytes) + ending.hashCode();
    }

    /** The line as ISO-8859-1 text (one character per byte) and its ending, for diagnostics. */
    @Override
    public String toString() {
        return "Line[" + new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1) + ", " + ending + "]";
    }
}
