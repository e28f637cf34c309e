package flowtest.conformance.decorators;

import flowtest.support.ChunkedTransport;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/**
 * Library-style subclasses of {@code BufferedReader} and {@code BufferedWriter} (as Commons Net's
 * {@code CRLFLineReader}) that read and write under {@code synchronized (lock)}, over a transport's
 * views whose input arrives a byte at a time.
 */
public final class SubclassesLockingLock implements Callable<Object> {

    /** Lines ended by CRLF only; a lone CR or LF stays in the line. */
    static final class CrlfReader extends BufferedReader {
        CrlfReader(Reader in) {
            super(in);
        }

        @Override
        public String readLine() throws IOException {
            StringBuilder sb = new StringBuilder();
            boolean prevWasCR = false;
            synchronized (lock) {
                for (int c = read(); c != -1; c = read()) {
                    if (prevWasCR && c == '\n') {
                        return sb.substring(0, sb.length() - 1);
                    }
                    prevWasCR = c == '\r';
                    sb.append((char) c);
                }
            }
            String s = sb.toString();
            return s.isEmpty() ? null : s;
        }
    }

    /** Writes each line with CRLF under the writer's lock. */
    static final class CrlfWriter extends BufferedWriter {
        CrlfWriter(Writer out) {
            super(out, 4);
        }

        void line(String s) throws IOException {
            synchronized (lock) {
                write(s);
                write("\r\n");
                flush();
            }
        }
    }

    @Override
    public Object call() throws Exception {
        byte[] input = "220 ready\r\n250-first\rstill\nfirst\r\n250 done\r\ntail".getBytes(StandardCharsets.UTF_8);
        ChunkedTransport t = ChunkedTransport.of(input, 1);
        CrlfReader r = new CrlfReader(new InputStreamReader(t.inputStream(), StandardCharsets.UTF_8));
        CrlfWriter w = new CrlfWriter(new OutputStreamWriter(t.outputStream(), StandardCharsets.UTF_8));
        StringBuilder b = new StringBuilder();
        for (String l = r.readLine(); l != null; l = r.readLine()) {
            b.append('[').append(Battery.escape(l)).append(']');
            w.line("ack " + l.length());
        }
        w.close();
        return b + " " + Battery.hex(t.written());
    }
}
