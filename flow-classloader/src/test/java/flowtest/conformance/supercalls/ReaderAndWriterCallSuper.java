package flowtest.conformance.supercalls;

import flowtest.support.Async;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.Writer;
import java.util.concurrent.Callable;

/** {@code Reader} and {@code Writer} subclasses whose {@code read}, {@code write}, {@code flush} and {@code close} call {@code super}. */
public final class ReaderAndWriterCallSuper implements Callable<Object> {

    static final class Lines extends BufferedReader {
        int reads;

        Lines(Reader in) {
            super(in, 4);
        }

        @Override
        public int read() throws IOException {
            reads++;
            return super.read();
        }

        @Override
        public int read(char[] b, int off, int len) throws IOException {
            reads += 10;
            return super.read(b, off, len);
        }

        @Override
        public String readLine() throws IOException {
            reads += 100;
            return super.readLine();
        }
    }

    static final class Out extends BufferedWriter {
        int calls;

        Out(Writer w) {
            super(w, 4);
        }

        @Override
        public void write(int c) throws IOException {
            calls++;
            super.write(c);
        }

        @Override
        public void write(String s, int off, int len) throws IOException {
            calls += 10;
            super.write(s, off, len);
        }

        @Override
        public void flush() throws IOException {
            calls += 100;
            super.flush();
        }

        @Override
        public void close() throws IOException {
            calls += 1000;
            super.close();
        }
    }

    @Override
    public Object call() throws Exception {
        Lines in = new Lines(new StringReader(Async.later("ab\ncdef\ngh").get()));
        char[] buf = new char[3];
        String got = in.read() + "," + in.readLine() + "," + in.read(buf, 0, 3) + new String(buf) + "," + in.reads;
        StringWriter sink = new StringWriter();
        Out out = new Out(sink);
        out.write('x');
        out.write(Async.later("yz").get());
        out.flush();
        out.write("tail", 1, 2);
        out.close();
        return got + ";" + sink + ";" + out.calls;
    }
}
