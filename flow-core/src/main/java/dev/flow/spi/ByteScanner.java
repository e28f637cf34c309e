package dev.flow.spi;

import java.io.IOException;

/**
 * Looks at a transport's unread input without waiting and decides how much of it to consume: the
 * primitive under the byte-level reads ({@link dev.flow.Transport#readLineBytes(dev.flow.LineTerminator,
 * int)}, {@link dev.flow.Transport#readDotBody(java.io.OutputStream, long)}). A scanner is stateful and
 * belongs to one read; it is called (by {@link InputBuffer#scan} or {@link AsyncTransport#pollScan})
 * under the transport's lock, so it must be quick, must not block and must not call the transport.
 */
public interface ByteScanner {

    /**
     * Examines the unread bytes {@code buf[off, off + len)} and returns how many of them, from the first,
     * to consume ({@code 0} to {@code len}). Bytes not consumed are offered again, after the ones that
     * arrive next, at the following call. The array must not be kept or modified.
     *
     * @param endOfStream whether no byte will follow these
     * @throws IOException to fail the read; a {@link dev.flow.LineTooLongException} also fails the
     *     input, as a text line over the limit does
     */
    int scan(byte[] buf, int off, int len, boolean endOfStream) throws IOException;
}
