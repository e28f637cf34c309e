package dev.flow.jdk;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UnsupportedEncodingException;
import java.lang.reflect.Method;
import java.nio.charset.Charset;
import java.util.Locale;

/**
 * A {@link PrintStream} whose writes suspend a flow where the JDK's would block inside its own frames:
 * the {@code ContinuationClassLoader} creates one wherever loaded code creates a {@code PrintStream},
 * and makes in-scope subclasses extend it. As the JDK's, it never throws {@code IOException} (but from
 * {@code write(byte[])}): a failed write sets the error that {@link #checkError()} reports (an
 * interrupted one re-asserts the thread's interrupt instead). Text is encoded by Flow's {@code
 * BufferedWriter} over {@code OutputStreamWriter} over this stream, in the charset the JDK would choose,
 * and reaches the stream at the end of each print as with the JDK's; {@code println} writes the line
 * and its separator in one piece where the running JDK does (a {@code PrintStream} itself, not a
 * subclass); auto-flush flushes where the JDK's does; {@code printf} formats with the JDK's {@code
 * Formatter} and makes the same {@code append} calls.
 *
 * <p>Public only because loaded code names it; not an API. Thread-safe: callers are excluded from each
 * other by a lock the flow owns (the JDK's takes this stream's monitor).
 */
public class FlowPrintStream extends PrintStream {

    /** Whether the running JDK's {@code PrintStream.println(x)} writes the line in one piece ({@code writeln}). */
    private static final boolean EXACT_CLASS_WRITES_LINE = declaresWriteln();

    private final FlowMonitor guard = new FlowMonitor();
    private final boolean autoFlush;
    private boolean trouble;
    private FlowBufferedWriter textOut;
    private FlowOutputStreamWriter charOut;
    private boolean closing;

    /** As {@code new PrintStream(out)}. */
    public FlowPrintStream(OutputStream out) {
        this(out, false);
    }

    /** As {@code new PrintStream(out, autoFlush)}. */
    public FlowPrintStream(OutputStream out, boolean autoFlush) {
        super(out, autoFlush);
        this.autoFlush = autoFlush;
        text(FlowPrintWriter.defaultCharset(out));
    }

    /** As {@code new PrintStream(out, autoFlush, encoding)}. */
    public FlowPrintStream(OutputStream out, boolean autoFlush, String encoding) throws UnsupportedEncodingException {
        super(out, autoFlush, encoding);
        this.autoFlush = autoFlush;
        text(Charset.forName(encoding));
    }

    /** As {@code new PrintStream(out, autoFlush, charset)}. */
    public FlowPrintStream(OutputStream out, boolean autoFlush, Charset charset) {
        super(out, autoFlush, charset);
        this.autoFlush = autoFlush;
        text(charset);
    }

    /** As {@code new PrintStream(fileName)}. */
    public FlowPrintStream(String fileName) throws FileNotFoundException {
        super(fileName);
        this.autoFlush = false;
        text(Charset.defaultCharset());
    }

    /** As {@code new PrintStream(fileName, csn)}. */
    public FlowPrintStream(String fileName, String csn) throws FileNotFoundException, UnsupportedEncodingException {
        super(fileName, csn);
        this.autoFlush = false;
        text(Charset.forName(csn));
    }

    /** As {@code new PrintStream(fileName, charset)}. */
    public FlowPrintStream(String fileName, Charset charset) throws IOException {
        super(fileName, charset);
        this.autoFlush = false;
        text(charset);
    }

    /** As {@code new PrintStream(file)}. */
    public FlowPrintStream(File file) throws FileNotFoundException {
        super(file);
        this.autoFlush = false;
        text(Charset.defaultCharset());
    }

    /** As {@code new PrintStream(file, csn)}. */
    public FlowPrintStream(File file, String csn) throws FileNotFoundException, UnsupportedEncodingException {
        super(file, csn);
        this.autoFlush = false;
        text(Charset.forName(csn));
    }

    /** As {@code new PrintStream(file, charset)}. */
    public FlowPrintStream(File file, Charset charset) throws IOException {
        super(file, charset);
        this.autoFlush = false;
        text(charset);
    }

    private void text(Charset charset) {
        charOut = new FlowOutputStreamWriter(this, charset);
        textOut = new FlowBufferedWriter(charOut);
    }

    private static boolean declaresWriteln() {
        for (Method m : PrintStream.class.getDeclaredMethods()) {
            if (m.getName().equals("writeln")) {
                return true;
            }
        }
        return false;
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
            if (!closing) {
                closing = true;
                try {
                    textOut.close();
                    out.close();
                } catch (IOException x) {
                    trouble = true;
                }
                textOut = null;
                charOut = null;
                out = null;
            }
        } finally {
            guard.release(me);
        }
    }

    @Override
    public boolean checkError() {
        if (out != null) {
            flush();
        }
        if (out instanceof PrintStream) {
            return ((PrintStream) out).checkError();
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
    public void write(int b) {
        Object me = guard.take();
        try {
            ensureOpen();
            out.write(b);
            if (b == '\n' && autoFlush) {
                out.flush();
            }
        } catch (IOException x) {
            failed(x);
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void write(byte[] buf, int off, int len) {
        Object me = guard.take();
        try {
            ensureOpen();
            out.write(buf, off, len);
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
    public void write(byte[] buf) throws IOException {
        if (buf == null) {
            super.write(buf);
            return;
        }
        write(buf, 0, buf.length);
    }

    @Override
    public void writeBytes(byte[] buf) {
        if (buf == null) {
            super.writeBytes(buf);
            return;
        }
        write(buf, 0, buf.length);
    }

    /** Writes {@code text} (a {@code String} or {@code char[]}), then the line separator if {@code line}. */
    private void writeText(Object text, boolean line) {
        Object me = guard.take();
        try {
            ensureOpen();
            boolean hasNewline;
            if (text instanceof String) {
                String s = (String) text;
                textOut.write(s);
                hasNewline = s.indexOf('\n') >= 0;
            } else {
                char[] buf = (char[]) text;
                textOut.write(buf);
                hasNewline = new String(buf).indexOf('\n') >= 0;
            }
            if (line) {
                textOut.newLine();
            }
            textOut.flushBuffer();
            charOut.flushBuffer();
            if (autoFlush && (line || hasNewline)) {
                out.flush();
            }
        } catch (IOException x) {
            failed(x);
        } finally {
            guard.release(me);
        }
    }

    private void write(String s) {
        writeText(s, false);
    }

    private void writeln(String s) {
        writeText(s, true);
    }

    private void newLine() {
        writeText("", true);
    }

    /** A null array fails in the JDK's own stream as it does there, unless the stream is closed (an error then). */
    private boolean writesNullArray(char[] s) {
        if (s != null) {
            return false;
        }
        if (out == null) {
            trouble = true;
        }
        return true;
    }

    @Override
    public void print(boolean x) {
        write(String.valueOf(x));
    }

    @Override
    public void print(char x) {
        write(String.valueOf(x));
    }

    @Override
    public void print(int x) {
        write(String.valueOf(x));
    }

    @Override
    public void print(long x) {
        write(String.valueOf(x));
    }

    @Override
    public void print(float x) {
        write(String.valueOf(x));
    }

    @Override
    public void print(double x) {
        write(String.valueOf(x));
    }

    @Override
    public void print(char[] s) {
        if (writesNullArray(s)) {
            if (out != null) {
                super.print(s);
            }
            return;
        }
        writeText(s, false);
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
        if (EXACT_CLASS_WRITES_LINE && getClass() == FlowPrintStream.class) {
            writeln(String.valueOf(x));
            return;
        }
        Object me = guard.take();
        try {
            print(x);
            newLine();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void println(char x) {
        if (EXACT_CLASS_WRITES_LINE && getClass() == FlowPrintStream.class) {
            writeln(String.valueOf(x));
            return;
        }
        Object me = guard.take();
        try {
            print(x);
            newLine();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void println(int x) {
        if (EXACT_CLASS_WRITES_LINE && getClass() == FlowPrintStream.class) {
            writeln(String.valueOf(x));
            return;
        }
        Object me = guard.take();
        try {
            print(x);
            newLine();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void println(long x) {
        if (EXACT_CLASS_WRITES_LINE && getClass() == FlowPrintStream.class) {
            writeln(String.valueOf(x));
            return;
        }
        Object me = guard.take();
        try {
            print(x);
            newLine();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void println(float x) {
        if (EXACT_CLASS_WRITES_LINE && getClass() == FlowPrintStream.class) {
            writeln(String.valueOf(x));
            return;
        }
        Object me = guard.take();
        try {
            print(x);
            newLine();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void println(double x) {
        if (EXACT_CLASS_WRITES_LINE && getClass() == FlowPrintStream.class) {
            writeln(String.valueOf(x));
            return;
        }
        Object me = guard.take();
        try {
            print(x);
            newLine();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void println(String x) {
        if (EXACT_CLASS_WRITES_LINE && getClass() == FlowPrintStream.class) {
            writeln(String.valueOf(x));
            return;
        }
        Object me = guard.take();
        try {
            print(x);
            newLine();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void println(char[] x) {
        if (EXACT_CLASS_WRITES_LINE && getClass() == FlowPrintStream.class) {
            if (writesNullArray(x)) {
                if (out != null) {
                    super.println(x);
                }
                return;
            }
            writeText(x, true);
            return;
        }
        Object me = guard.take();
        try {
            print(x);
            newLine();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void println(Object x) {
        String s = String.valueOf(x);
        if (EXACT_CLASS_WRITES_LINE && getClass() == FlowPrintStream.class) {
            writeln(s);
            return;
        }
        Object me = guard.take();
        try {
            print(s);
            newLine();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public PrintStream printf(String format, Object... args) {
        return format(format, args);
    }

    @Override
    public PrintStream printf(Locale l, String format, Object... args) {
        return format(l, format, args);
    }

    @Override
    public PrintStream format(String format, Object... args) {
        return doFormat(Locale.getDefault(Locale.Category.FORMAT), format, args);
    }

    @Override
    public PrintStream format(Locale l, String format, Object... args) {
        return doFormat(l, format, args);
    }

    private PrintStream doFormat(Locale l, String format, Object... args) {
        Object me = guard.take();
        try {
            ensureOpen();
            Formatted.format(this, l, format, args);
        } catch (IOException x) {
            failed(x);
        } finally {
            guard.release(me);
        }
        return this;
    }

    @Override
    public PrintStream append(CharSequence csq) {
        print(String.valueOf(csq));
        return this;
    }

    @Override
    public PrintStream append(CharSequence csq, int start, int end) {
        CharSequence s = csq == null ? "null" : csq;
        return append(s.subSequence(start, end));
    }

    @Override
    public PrintStream append(char c) {
        print(c);
        return this;
    }
}
