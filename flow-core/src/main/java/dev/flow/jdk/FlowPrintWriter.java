package dev.flow.jdk;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UnsupportedEncodingException;
import java.io.Writer;
import java.lang.reflect.Method;
import java.nio.charset.Charset;
import java.util.Locale;

/**
 * A {@link PrintWriter} whose writes suspend a flow where the JDK's would block inside its own frames:
 * the {@code ContinuationClassLoader} creates one wherever loaded code creates a {@code PrintWriter},
 * and makes in-scope subclasses extend it. As the JDK's, it never throws {@code IOException}: a failed
 * write sets the error that {@link #checkError()} reports (an interrupted one re-asserts the thread's
 * interrupt instead); over an {@code OutputStream} it writes through Flow's {@code BufferedWriter} and
 * {@code OutputStreamWriter} in the charset the JDK would choose; {@code printf} formats with the JDK's
 * {@code Formatter} and makes the same {@code append} calls; auto-flush flushes where the JDK's does.
 *
 * <p>Public only because loaded code names it; not an API. Thread-safe: callers are excluded from each
 * other by a lock the flow owns (its {@code lock}, rather than the wrapped writer).
 */
public class FlowPrintWriter extends PrintWriter {

    /** {@code PrintStream.charset()} where the running JDK has it (18 and later), else {@code null}. */
    private static final Method PRINT_STREAM_CHARSET = printStreamCharset();

    private final FlowMonitor guard = new FlowMonitor();
    private final boolean autoFlush;
    private final PrintStream psOut;
    private boolean trouble;

    /** As {@code new PrintWriter(out)}. */
    public FlowPrintWriter(Writer out) {
        this(out, false);
    }

    /** As {@code new PrintWriter(out, autoFlush)}. */
    public FlowPrintWriter(Writer out, boolean autoFlush) {
        super(out, autoFlush);
        this.lock = guard;
        this.autoFlush = autoFlush;
        this.psOut = null;
    }

    /** As {@code new PrintWriter(out)}. */
    public FlowPrintWriter(OutputStream out) {
        this(out, false);
    }

    /** As {@code new PrintWriter(out, autoFlush)}: the charset of a {@code PrintStream} {@code out} where the JDK takes it. */
    public FlowPrintWriter(OutputStream out, boolean autoFlush) {
        this(out, autoFlush, defaultCharset(out));
    }

    /** As {@code new PrintWriter(out, autoFlush, charset)}. */
    public FlowPrintWriter(OutputStream out, boolean autoFlush, Charset charset) {
        super(new FlowBufferedWriter(new FlowOutputStreamWriter(out, charset)), autoFlush);
        this.lock = guard;
        this.autoFlush = autoFlush;
        this.psOut = out instanceof PrintStream ? (PrintStream) out : null;
    }

    /** As {@code new PrintWriter(fileName)}. */
    public FlowPrintWriter(String fileName) throws FileNotFoundException {
        super(fileName);
        this.lock = guard;
        this.autoFlush = false;
        this.psOut = null;
    }

    /** As {@code new PrintWriter(fileName, csn)}. */
    public FlowPrintWriter(String fileName, String csn) throws FileNotFoundException, UnsupportedEncodingException {
        super(fileName, csn);
        this.lock = guard;
        this.autoFlush = false;
        this.psOut = null;
    }

    /** As {@code new PrintWriter(fileName, charset)}. */
    public FlowPrintWriter(String fileName, Charset charset) throws IOException {
        super(fileName, charset);
        this.lock = guard;
        this.autoFlush = false;
        this.psOut = null;
    }

    /** As {@code new PrintWriter(file)}. */
    public FlowPrintWriter(File file) throws FileNotFoundException {
        super(file);
        this.lock = guard;
        this.autoFlush = false;
        this.psOut = null;
    }

    /** As {@code new PrintWriter(file, csn)}. */
    public FlowPrintWriter(File file, String csn) throws FileNotFoundException, UnsupportedEncodingException {
        super(file, csn);
        this.lock = guard;
        this.autoFlush = false;
        this.psOut = null;
    }

    /** As {@code new PrintWriter(file, charset)}. */
    public FlowPrintWriter(File file, Charset charset) throws IOException {
        super(file, charset);
        this.lock = guard;
        this.autoFlush = false;
        this.psOut = null;
    }

    private static Method printStreamCharset() {
        try {
            return PrintStream.class.getMethod("charset");
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** The charset the running JDK's {@code PrintWriter(OutputStream)} and {@code PrintStream(OutputStream)} choose. */
    static Charset defaultCharset(OutputStream out) {
        if (PRINT_STREAM_CHARSET != null && out instanceof PrintStream) {
            try {
                return (Charset) PRINT_STREAM_CHARSET.invoke(out);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("PrintStream.charset() of " + out, e);
            }
        }
        return Charset.defaultCharset();
    }

    private void ensureOpen() throws IOException {
        if (out == null) {
            throw new IOException("Stream closed");
        }
    }

    /** Records a failed write as the JDK's does. */
    private void failed(IOException x) {
        if (x instanceof InterruptedIOException) {
            Thread.currentThread().interrupt();
        } else {
            trouble = true;
        }
    }

    @Override
    public void flush() {
        Object me = guard.take();
        try {
            ensureOpen();
            out.flush();
        } catch (IOException x) {
            trouble = true;
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void close() {
        Object me = guard.take();
        try {
            if (out != null) {
                out.close();
                out = null;
            }
        } catch (IOException x) {
            trouble = true;
        } finally {
            guard.release(me);
        }
    }

    @Override
    public boolean checkError() {
        if (out != null) {
            flush();
        }
        if (out instanceof PrintWriter) {
            return ((PrintWriter) out).checkError();
        } else if (psOut != null) {
            return psOut.checkError();
        }
        return trouble;
    }

    @Override
    protected void setError() {
        trouble = true;
    }

    @Override
    protected void clearError() {
        trouble = false;
    }

    @Override
    public void write(int c) {
        Object me = guard.take();
        try {
            ensureOpen();
            out.write(c);
        } catch (IOException x) {
            failed(x);
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void write(char[] buf, int off, int len) {
        Object me = guard.take();
        try {
            ensureOpen();
            out.write(buf, off, len);
        } catch (IOException x) {
            failed(x);
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void write(char[] buf) {
        if (buf == null) {
            super.write(buf);
            return;
        }
        write(buf, 0, buf.length);
    }

    @Override
    public void write(String s, int off, int len) {
        Object me = guard.take();
        try {
            ensureOpen();
            out.write(s, off, len);
        } catch (IOException x) {
            failed(x);
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void write(String s) {
        if (s == null) {
            super.write(s);
            return;
        }
        write(s, 0, s.length());
    }

    private void newLine() {
        Object me = guard.take();
        try {
            ensureOpen();
            out.write(System.lineSeparator());
            if (autoFlush) {
                out.flush();
            }
        } catch (IOException x) {
            failed(x);
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void print(boolean b) {
        write(String.valueOf(b));
    }

    @Override
    public void print(char c) {
        write(c);
    }

    @Override
    public void print(int i) {
        write(String.valueOf(i));
    }

    @Override
    public void print(long l) {
        write(String.valueOf(l));
    }

    @Override
    public void print(float f) {
        write(String.valueOf(f));
    }

    @Override
    public void print(double d) {
        write(String.valueOf(d));
    }

    @Override
    public void print(char[] s) {
        write(s);
    }

    @Override
    public void print(String s) {
        write(String.valueOf(s));
    }

    @Override
    public void print(Object obj) {
        write(String.valueOf(obj));
    }

    @Override
    public void println() {
        newLine();
    }

    @Override
    public void println(boolean x) {
        Object me = guard.take();
        try {
            print(x);
            println();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void println(char x) {
        Object me = guard.take();
        try {
            print(x);
            println();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void println(int x) {
        Object me = guard.take();
        try {
            print(x);
            println();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void println(long x) {
        Object me = guard.take();
        try {
            print(x);
            println();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void println(float x) {
        Object me = guard.take();
        try {
            print(x);
            println();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void println(double x) {
        Object me = guard.take();
        try {
            print(x);
            println();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void println(char[] x) {
        Object me = guard.take();
        try {
            print(x);
            println();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void println(String x) {
        Object me = guard.take();
        try {
            print(x);
            println();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void println(Object x) {
        String s = String.valueOf(x);
        Object me = guard.take();
        try {
            print(s);
            println();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public PrintWriter printf(String format, Object... args) {
        return format(format, args);
    }

    @Override
    public PrintWriter printf(Locale l, String format, Object... args) {
        return format(l, format, args);
    }

    @Override
    public PrintWriter format(String format, Object... args) {
        return doFormat(Locale.getDefault(), format, args);
    }

    @Override
    public PrintWriter format(Locale l, String format, Object... args) {
        return doFormat(l, format, args);
    }

    private PrintWriter doFormat(Locale l, String format, Object... args) {
        Object me = guard.take();
        try {
            ensureOpen();
            Formatted.format(this, l, format, args);
            if (autoFlush) {
                out.flush();
            }
        } catch (IOException x) {
            failed(x);
        } finally {
            guard.release(me);
        }
        return this;
    }

    @Override
    public PrintWriter append(CharSequence csq) {
        write(String.valueOf(csq));
        return this;
    }

    @Override
    public PrintWriter append(CharSequence csq, int start, int end) {
        CharSequence s = csq == null ? "null" : csq;
        return append(s.subSequence(start, end));
    }

    @Override
    public PrintWriter append(char c) {
        write(c);
        return this;
    }
}
