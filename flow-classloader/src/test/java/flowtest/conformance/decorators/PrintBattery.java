package flowtest.conformance.decorators;

import flowtest.support.ChunkedTransport;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.LineNumberReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code PrintWriter}, {@code PrintStream} and {@code LineNumberReader} (and in-scope subclasses of each)
 * over a transport's views: what reaches the transport, byte for byte, after each print with and
 * without auto-flush, {@code printf} (also failing part-way), charsets, {@code checkError} after close,
 * a stream whose writes fail; line numbers across {@code \r}, {@code \n}, {@code \r\n} split between
 * arrivals, {@code mark/reset}, {@code skip} and the end of input.
 */
public final class PrintBattery implements Callable<Object> {

    /** Prefixes every line it prints, as a logging library's writer would. */
    static final class Prefixing extends PrintWriter {
        Prefixing(OutputStream out) {
            super(out, true);
        }

        @Override
        public void println(String x) {
            synchronized (lock) {
                print("> ");
                super.println(x);
            }
        }
    }

    /** Counts the bytes written through it. */
    static final class Counting extends PrintStream {
        int bytes;

        Counting(OutputStream out) {
            super(out, false, StandardCharsets.UTF_8);
        }

        @Override
        public void write(byte[] buf, int off, int len) {
            bytes += len;
            super.write(buf, off, len);
        }
    }

    /** Reads numbered lines under its lock. */
    static final class Numbered extends LineNumberReader {
        Numbered(Reader in) {
            super(in, 3);
        }

        String numbered() throws IOException {
            synchronized (lock) {
                String l = readLine();
                return l == null ? null : getLineNumber() + ":" + l;
            }
        }
    }

    /** An output stream whose writes fail after {@code limit} bytes. */
    static final class Failing extends OutputStream {
        private final OutputStream out;
        private int left;

        Failing(OutputStream out, int limit) {
            this.out = out;
            this.left = limit;
        }

        @Override
        public void write(int b) throws IOException {
            if (left-- <= 0) {
                throw new IOException("full");
            }
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            for (int i = 0; i < len; i++) {
                write(b[off + i]);
            }
        }
    }

    private static Reader in(String text, int chunk) {
        return new InputStreamReader(ChunkedTransport.of(text.getBytes(StandardCharsets.UTF_8), chunk).inputStream(),
                StandardCharsets.UTF_8);
    }

    @Override
    public Object call() throws Exception {
        Battery b = new Battery();
        b.step("print writer", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            PrintWriter w = new PrintWriter(new OutputStreamWriter(t.outputStream(), StandardCharsets.UTF_8));
            StringBuilder r = new StringBuilder();
            w.print(true);
            w.print('c');
            w.print(42);
            w.print(7L);
            w.print(1.5f);
            w.print(2.5);
            w.print(new char[] {'h', '\u00e9'});
            w.print((String) null);
            w.print((Object) List.of(1));
            r.append(Battery.hex(t.written())).append('|');
            w.println();
            w.println(1);
            w.printf(Locale.ROOT, "%05.1f|%s|%x%n", 3.14159, "\u20ac", 255);
            w.format("%s", "x").append("yz", 1, 2).append('!').append(null).write("abcdef", 2, 3);
            w.write(new char[] {'q', 'r', 's'}, 1, 1);
            w.write('\n');
            w.flush();
            r.append(Battery.hex(t.written())).append('|').append(w.checkError());
            w.close();
            w.println("after close");
            return r.append(w.checkError()).append('|').append(Battery.hex(t.written()));
        });
        b.step("print writer auto-flush over a stream", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            PrintWriter w = new PrintWriter(new java.io.BufferedOutputStream(t.outputStream()), true);
            w.print("no flush ");
            String before = Battery.hex(t.written());
            w.println("line");
            String after = Battery.hex(t.written());
            w.printf("%d", 5);
            return before + "|" + after + "|" + Battery.hex(t.written());
        });
        b.step("print writer bad format", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            PrintWriter w = new PrintWriter(t.outputStream(), true, StandardCharsets.UTF_8);
            try {
                w.printf("a%sb%dc", "x", "not a number");
            } catch (RuntimeException e) {
                w.flush();
                return e + "|" + Battery.hex(t.written());
            }
            return "formatted";
        });
        b.step("print writer errors", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            PrintWriter w = new PrintWriter(new BufferedWriter(new OutputStreamWriter(new Failing(t.outputStream(), 3),
                    StandardCharsets.UTF_8), 2));
            w.print("abcdef");
            boolean error = w.checkError();
            return error + "|" + Battery.hex(t.written()) + "|" + Thread.currentThread().isInterrupted();
        });
        b.step("prefixing subclass", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            Prefixing w = new Prefixing(t.outputStream());
            w.println("one");
            w.println("two");
            return Battery.hex(t.written());
        });
        b.step("print stream", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            PrintStream p = new PrintStream(t.outputStream(), false, "UTF-8");
            StringBuilder r = new StringBuilder();
            p.print(true);
            p.print('\u00e9');
            p.print(42);
            p.print(new char[] {'x', '\u20ac'});
            p.print((Object) null);
            r.append(Battery.hex(t.written())).append('|');
            p.println(3.5);
            p.println("line");
            p.printf(Locale.ROOT, "%3d|%-4s|%n", 7, "ab");
            p.append("xyz", 0, 1).append('c');
            p.write(0x41);
            p.write(new byte[] {1, 2, 3}, 1, 2);
            p.writeBytes(new byte[] {4});
            p.write(new byte[] {5});
            p.flush();
            r.append(Battery.hex(t.written())).append('|').append(p.checkError());
            p.close();
            p.print("after close");
            return r.append(p.checkError()).append('|').append(Battery.hex(t.written()));
        });
        b.step("print stream auto-flush", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            PrintStream p = new PrintStream(new java.io.BufferedOutputStream(t.outputStream(), 64), true);
            StringBuilder r = new StringBuilder();
            p.write('a');
            r.append(Battery.hex(t.written())).append(',');
            p.write('\n');
            r.append(Battery.hex(t.written())).append(',');
            p.print("b");
            r.append(Battery.hex(t.written())).append(',');
            p.print("c\nd");
            r.append(Battery.hex(t.written())).append(',');
            p.println();
            return r.append(Battery.hex(t.written()));
        });
        b.step("print stream errors", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            PrintStream p = new PrintStream(new Failing(t.outputStream(), 2));
            p.print("abcd");
            boolean error = p.checkError();
            return error + "|" + Battery.hex(t.written());
        });
        b.step("print stream bad format", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            PrintStream p = new PrintStream(t.outputStream());
            try {
                p.format(Locale.ROOT, "[%s][%q]", "x");
            } catch (RuntimeException e) {
                return e + "|" + Battery.hex(t.written());
            }
            return "formatted";
        });
        b.step("print stream null array", () -> {
            PrintStream p = new PrintStream(new ChunkedTransport(List.of()).outputStream());
            p.print((char[]) null);
            return "printed";
        });
        b.step("counting subclass", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            Counting p = new Counting(t.outputStream());
            p.println("h\u00e9");
            p.printf("%s", "x");
            return p.bytes + ":" + Battery.hex(t.written());
        });
        b.step("line numbers by 1", () -> {
            LineNumberReader r = new LineNumberReader(in("a\r\nb\rc\n\nd\r\ne", 1));
            StringBuilder s = new StringBuilder();
            for (int c = r.read(); c >= 0; c = r.read()) {
                s.append(Battery.escape(String.valueOf((char) c))).append(r.getLineNumber());
            }
            return s.append(':').append(r.getLineNumber()).append(r.read()).append(r.getLineNumber());
        });
        b.step("line numbers by line", () -> {
            LineNumberReader r = new LineNumberReader(in("one\r\ntwo\rthree\n\nfour", 2), 4);
            r.setLineNumber(10);
            StringBuilder s = new StringBuilder();
            for (String l = r.readLine(); l != null; l = r.readLine()) {
                s.append(l).append(r.getLineNumber()).append(',');
            }
            return s.append(r.getLineNumber());
        });
        b.step("line numbers read(cbuf), mark, skip", () -> {
            LineNumberReader r = new LineNumberReader(in("ab\r\ncd\ref\ngh\r", 3), 2);
            char[] c = new char[4];
            StringBuilder s = new StringBuilder();
            int n = r.read(c, 0, 4);
            s.append(n).append(Battery.escape(new String(c, 0, n))).append(r.getLineNumber()).append(',');
            r.mark(8);
            s.append((char) r.read()).append(r.readLine()).append(r.getLineNumber()).append(',');
            r.reset();
            s.append(r.getLineNumber()).append(r.skip(5)).append(r.getLineNumber()).append(',').append(r.ready()).append(',');
            s.append(r.read(c)).append(r.getLineNumber()).append(r.read(c)).append(r.getLineNumber());
            try {
                r.skip(-1);
            } catch (IllegalArgumentException e) {
                s.append(e.getMessage());
            }
            return s;
        });
        b.step("line number size", () -> new LineNumberReader(in("a", 1), 0));
        b.step("numbered subclass", () -> {
            Numbered r = new Numbered(in("x\ny\r\nz", 1));
            return r.numbered() + r.numbered() + r.numbered() + r.numbered();
        });
        return b.toString();
    }
}
