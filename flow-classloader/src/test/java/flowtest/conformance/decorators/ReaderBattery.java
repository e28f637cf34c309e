package flowtest.conformance.decorators;

import flowtest.support.Async;
import flowtest.support.ChunkedTransport;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/**
 * {@code BufferedReader} over {@code InputStreamReader} over a transport's input view whose bytes
 * arrive one or a few at a time: line terminators split across arrivals, malformed and truncated
 * UTF-8, byte-order marks, surrogate pairs through {@code read()}, a reporting decoder, {@code
 * mark/reset}, {@code skip}, {@code ready()}, argument errors and a closed reader.
 */
public final class ReaderBattery implements Callable<Object> {

    private static byte[] bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) b[i];
        }
        return out;
    }

    private static InputStream in(byte[] input, int chunk) {
        return ChunkedTransport.of(input, chunk).inputStream();
    }

    private static String drainChars(Reader r) throws Exception {
        StringBuilder b = new StringBuilder();
        for (int c = r.read(); c >= 0; c = r.read()) {
            b.append((char) c);
        }
        return b.toString();
    }

    private static String drainLines(BufferedReader r) throws Exception {
        StringBuilder b = new StringBuilder();
        for (String l = r.readLine(); l != null; l = r.readLine()) {
            b.append('[').append(l).append(']');
        }
        return b.toString();
    }

    @Override
    public Object call() throws Exception {
        Battery b = new Battery();
        b.step("first", () -> Async.later("awaited").get());
        byte[] lines = "a\r\nb\rc\n\nd\r\ne\rf".getBytes(StandardCharsets.UTF_8);
        b.step("lines by 1", () -> drainLines(new BufferedReader(new InputStreamReader(in(lines, 1), StandardCharsets.UTF_8))));
        b.step("lines by 3, buffer 2", () -> drainLines(new BufferedReader(new InputStreamReader(in(lines, 3), "UTF-8"), 2)));
        b.step("chars after CR", () -> {
            BufferedReader r = new BufferedReader(new InputStreamReader(in(lines, 2), StandardCharsets.UTF_8));
            return r.readLine() + "|" + r.readLine() + "|" + (char) r.read() + r.ready() + "|" + drainChars(r);
        });
        byte[] malformed = bytes('x', 0xC3, 0x28, 'y', 0xF0, 0x9F, 0x98, 0x80, 0xFF, 'z', 0xE2, 0x82);
        b.step("malformed utf-8 by 1", () -> drainChars(new InputStreamReader(in(malformed, 1), StandardCharsets.UTF_8)));
        b.step("malformed utf-8 buffered", () -> {
            char[] c = new char[64];
            BufferedReader r = new BufferedReader(new InputStreamReader(in(malformed, 5), StandardCharsets.UTF_8), 3);
            int n = r.read(c, 0, 64);
            return n + ":" + new String(c, 0, Math.max(n, 0)) + "|" + drainChars(r);
        });
        b.step("reporting decoder", () -> drainChars(new InputStreamReader(in(malformed, 2), StandardCharsets.UTF_8.newDecoder())));
        b.step("utf-16 with BOM", () -> drainChars(new InputStreamReader(in(bytes(0xFF, 0xFE, 'h', 0, 'i', 0, 0x3D, 0xD8), 1), "UTF-16")));
        b.step("utf-8 BOM kept", () -> drainChars(new InputStreamReader(in(bytes(0xEF, 0xBB, 0xBF, 'o', 'k'), 2), StandardCharsets.UTF_8)));
        b.step("latin-1 read(cbuf)", () -> {
            InputStreamReader r = new InputStreamReader(in(bytes('a', 0xE9, 'b', 0xFF), 1), StandardCharsets.ISO_8859_1);
            char[] c = new char[8];
            int n1 = r.read(c, 0, 8);
            int n2 = r.read(c, n1, 8 - n1);
            return n1 + "," + n2 + ":" + new String(c, 0, n1 + Math.max(n2, 0)) + "|" + r.getEncoding() + r.ready();
        });
        b.step("mark and reset", () -> {
            BufferedReader r = new BufferedReader(new InputStreamReader(in("0123456789\nrest".getBytes(StandardCharsets.UTF_8), 2),
                    StandardCharsets.UTF_8), 4);
            StringBuilder s = new StringBuilder().append((char) r.read()).append((char) r.read());
            r.mark(20);
            char[] c = new char[5];
            s.append(r.read(c)).append(new String(c));
            r.reset();
            s.append('|').append(r.readLine()).append('|').append(r.markSupported());
            r.mark(1);
            s.append((char) r.read()).append((char) r.read()).append((char) r.read()).append((char) r.read());
            try {
                r.reset();
            } catch (java.io.IOException e) {
                s.append('|').append(e.getMessage());
            }
            return s.append('|').append(r.readLine());
        });
        b.step("never marked", () -> {
            BufferedReader r = new BufferedReader(new InputStreamReader(in(bytes('a'), 1), StandardCharsets.UTF_8));
            r.reset();
            return "reset";
        });
        b.step("skip", () -> {
            BufferedReader r = new BufferedReader(new InputStreamReader(in("abc\r\ndefghij".getBytes(StandardCharsets.UTF_8), 3),
                    StandardCharsets.UTF_8), 4);
            return r.skip(2) + "," + r.readLine() + "," + r.ready() + "," + r.skip(3) + "," + (char) r.read() + "," + r.skip(100) + ","
                    + r.read() + "," + r.ready();
        });
        b.step("negative skip", () -> new BufferedReader(new InputStreamReader(in(bytes('a'), 1), StandardCharsets.UTF_8)).skip(-1));
        b.step("negative mark", () -> {
            new BufferedReader(new InputStreamReader(in(bytes('a'), 1), StandardCharsets.UTF_8)).mark(-1);
            return "marked";
        });
        b.step("bounds", () -> new BufferedReader(new InputStreamReader(in(bytes('a'), 1), StandardCharsets.UTF_8)).read(new char[2], 1, 2));
        b.step("reader bounds", () -> new InputStreamReader(in(bytes('a'), 1), StandardCharsets.UTF_8).read(new char[2], -1, 1));
        b.step("buffer size", () -> new BufferedReader(new InputStreamReader(in(bytes('a'), 1), StandardCharsets.UTF_8), 0));
        b.step("charset name", () -> new InputStreamReader(in(bytes('a'), 1), "no-such-charset"));
        b.step("closed", () -> {
            InputStreamReader isr = new InputStreamReader(in(bytes('a', 'b'), 1), StandardCharsets.UTF_8);
            BufferedReader r = new BufferedReader(isr);
            String before = isr.getEncoding();
            r.close();
            r.close();
            return before + "," + isr.getEncoding() + "," + r.read();
        });
        b.step("closed reader ready", () -> {
            InputStreamReader r = new InputStreamReader(in(bytes('a'), 1), StandardCharsets.UTF_8);
            r.close();
            return r.ready();
        });
        b.step("large read", () -> {
            byte[] big = new byte[20000];
            for (int i = 0; i < big.length; i++) {
                big[i] = (byte) ('a' + i % 26);
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in(big, 4096), StandardCharsets.US_ASCII), 16);
            char[] c = new char[9000];
            int total = 0;
            int calls = 0;
            for (int n = r.read(c); n >= 0; n = r.read(c)) {
                total += n;
                calls++;
            }
            return total + " in " + (calls > 0);
        });
        return b.toString();
    }
}
