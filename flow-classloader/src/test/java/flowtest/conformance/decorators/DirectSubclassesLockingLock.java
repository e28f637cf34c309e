package flowtest.conformance.decorators;

import flowtest.support.ChunkedTransport;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/**
 * Library-style direct subclasses of {@code Writer} and {@code Reader} (as Commons Net's {@code
 * DotTerminatedMessageWriter}) that write, flush and read under {@code synchronized (lock)}: the writer's lock
 * given to {@code super(out)}, the reader's the object itself ({@code super()}), over a transport's views whose
 * input arrives a byte at a time; and a {@code super(null)} lock, which the JDK refuses.
 */
public final class DirectSubclassesLockingLock implements Callable<Object> {

    /** Doubles a leading dot and ends the message with CRLF.CRLF on close, under {@code synchronized (lock)}. */
    static final class DotWriter extends Writer {
        private Writer out;
        private boolean lineStart = true;

        DotWriter(Writer out) {
            super(out);
            this.out = out;
        }

        @Override
        public void write(char[] b, int off, int len) throws IOException {
            synchronized (lock) {
                for (int i = off; i < off + len; i++) {
                    if (lineStart && b[i] == '.') {
                        out.write('.');
                    }
                    out.write(b[i]);
                    lineStart = b[i] == '\n';
                }
            }
        }

        @Override
        public void flush() throws IOException {
            synchronized (lock) {
                out.flush();
            }
        }

        @Override
        public void close() throws IOException {
            synchronized (lock) {
                if (out != null) {
                    out.write(lineStart ? ".\r\n" : "\r\n.\r\n");
                    out.flush();
                    out = null;
                }
            }
        }
    }

    /** Reads up to the first space, a char at a time, under its own lock ({@code super()}). */
    static final class WordReader extends Reader {
        private final Reader in;

        WordReader(Reader in) {
            this.in = in;
        }

        String word() throws IOException {
            StringBuilder b = new StringBuilder();
            synchronized (lock) {
                for (int c = in.read(); c != -1 && c != ' '; c = in.read()) {
                    b.append((char) c);
                }
            }
            return b.toString();
        }

        @Override
        public int read(char[] b, int off, int len) throws IOException {
            synchronized (lock) {
                return in.read(b, off, len);
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    /** Gives {@code null} as its lock. */
    static final class NullLocked extends Writer {
        NullLocked() {
            super((Object) null);
        }

        @Override
        public void write(char[] b, int off, int len) {
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    @Override
    public Object call() throws Exception {
        ChunkedTransport t = ChunkedTransport.of("hello .dotted world rest".getBytes(StandardCharsets.UTF_8), 1);
        WordReader r = new WordReader(new InputStreamReader(t.inputStream(), StandardCharsets.UTF_8));
        StringBuilder b = new StringBuilder();
        try (DotWriter w = new DotWriter(new OutputStreamWriter(t.outputStream(), StandardCharsets.UTF_8))) {
            for (int i = 0; i < 3; i++) {
                String word = r.word();
                b.append('[').append(word).append(']');
                w.write(word + "\r\n");
                w.flush();
            }
            char[] rest = new char[8];
            b.append(new String(rest, 0, r.read(rest, 0, rest.length)));
        }
        try {
            new NullLocked();
        } catch (NullPointerException e) {
            b.append(" npe ").append(e.getMessage());
        }
        return b + " " + Battery.hex(t.written());
    }
}
