package dev.flow.jdk;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A {@link FilterOutputStream} whose methods run in loaded code, so that a flow suspends where the JDK's
 * would call back into loaded code from its own frames (its {@code close()} calls {@code flush()}, its
 * {@code write(byte[])} calls {@code write(byte[], int, int)}, which calls {@code write(int)}, each possibly
 * overridden by a subclass that writes to a Flow stream): the {@code ContinuationClassLoader} creates one
 * wherever loaded code creates a {@code FilterOutputStream}, and makes in-scope subclasses (such as pgjdbc's
 * {@code PgBufferedOutputStream}) extend it. Each method does what the JDK's is specified to do, in the same
 * order: {@code close()} closes once, flushes, then closes {@code out} even when the flush failed (a failure
 * of that close carries the flush's as suppressed); argument errors are the running JDK's own exceptions.
 *
 * <p>Public only because loaded code names it; not an API. Thread-safe as the JDK's: {@code close()} closes
 * once across threads; the rest is as safe as {@code out}.
 */
public class FlowFilterOutputStream extends FilterOutputStream {

    private final Object closeLock = new Object();
    private volatile boolean closed;

    /** As {@code new FilterOutputStream(out)}. */
    public FlowFilterOutputStream(OutputStream out) {
        super(out);
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
    }

    @Override
    public void write(byte[] b) throws IOException {
        if (b == null) {
            throw JdkChecks.filterOutputStreamWrite(b);
        }
        write(b, 0, b.length);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (b == null || JdkChecks.outOfBounds(off, len, b.length)) {
            throw JdkChecks.filterOutputStreamWrite(b, off, len);
        }
        for (int i = 0; i < len; i++) {
            write(b[off + i]);
        }
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        synchronized (closeLock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        OutputStreams.close(this, out);
    }
}
