package flowtest.conformance.decorators;

import flowtest.support.Async;
import flowtest.support.ChunkedTransport;
import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.CharArrayWriter;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code BufferedWriter} over {@code OutputStreamWriter} over a transport's output view: what reaches
 * the transport, byte for byte, before and after {@code flush()} and {@code close()}: surrogate pairs
 * split across writes, an unpaired surrogate at close, unmappable characters, small buffers, appends,
 * argument errors and a closed writer; and what default-sized {@code BufferedWriter} and {@code
 * BufferedOutputStream} pass on after each write.
 */
public final class WriterBattery implements Callable<Object> {

    @Override
    public Object call() throws Exception {
        Battery b = new Battery();
        b.step("first", () -> Async.later("awaited").get());
        b.step("buffered utf-8", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            BufferedWriter w = new BufferedWriter(new OutputStreamWriter(t.outputStream(), StandardCharsets.UTF_8), 4);
            w.write("héllo");
            String early = Battery.hex(t.written());
            w.write('\ud83d');
            w.write('\ude00');
            w.newLine();
            w.append("xyz", 1, 3).append('!').append(null);
            w.write(new char[] {'a', 'b', 'c', 'd', 'e', 'f'}, 1, 4);
            w.write("ignored", 2, -1);
            String beforeFlush = Battery.hex(t.written());
            w.flush();
            String flushed = Battery.hex(t.written());
            w.write('\ud83d');
            w.close();
            w.close();
            return early + "|" + beforeFlush + "|" + flushed + "|" + Battery.hex(t.written());
        });
        b.step("unmappable latin-1", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            OutputStreamWriter w = new OutputStreamWriter(t.outputStream(), "ISO-8859-1");
            w.write("a€b\ud800c");
            String before = Battery.hex(t.written());
            w.flush();
            return w.getEncoding() + "|" + before + "|" + Battery.hex(t.written());
        });
        b.step("reporting encoder", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            OutputStreamWriter w = new OutputStreamWriter(t.outputStream(), StandardCharsets.US_ASCII.newEncoder());
            w.write("ok€");
            w.flush();
            return Battery.hex(t.written());
        });
        b.step("closed", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            OutputStreamWriter osw = new OutputStreamWriter(t.outputStream(), StandardCharsets.UTF_8);
            Writer w = new BufferedWriter(osw);
            w.write("x");
            w.close();
            String after = osw.getEncoding();
            w.write("y");
            return after;
        });
        b.step("closed writer flush", () -> {
            OutputStreamWriter w = new OutputStreamWriter(new ChunkedTransport(List.of()).outputStream(), StandardCharsets.UTF_8);
            w.close();
            w.flush();
            return "flushed";
        });
        b.step("bounds", () -> {
            new BufferedWriter(new OutputStreamWriter(new ChunkedTransport(List.of()).outputStream())).write(new char[2], 1, 2);
            return "written";
        });
        b.step("writer bounds", () -> {
            new OutputStreamWriter(new ChunkedTransport(List.of()).outputStream()).write("ab", 1, 3);
            return "written";
        });
        b.step("negative length", () -> {
            new OutputStreamWriter(new ChunkedTransport(List.of()).outputStream()).write("ab", 0, -1);
            return "written";
        });
        b.step("buffer size", () -> new BufferedWriter(new OutputStreamWriter(new ChunkedTransport(List.of()).outputStream()), -1));
        b.step("charset name", () -> new OutputStreamWriter(new ChunkedTransport(List.of()).outputStream(), "no-such-charset"));
        b.step("large write", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            BufferedWriter w = new BufferedWriter(new OutputStreamWriter(t.outputStream(), StandardCharsets.UTF_8), 16);
            StringBuilder s = new StringBuilder();
            for (int i = 0; i < 20000; i++) {
                s.append((char) ('a' + i % 26));
            }
            w.write(s.toString());
            int before = t.written().length;
            w.write(s.toString().toCharArray());
            w.flush();
            return before + "," + t.written().length;
        });
        b.step("default sizes", () -> {
            // Made without a size, Flow's buffers start small and grow: what reaches the sink, after each write of
            // lengths around their start and their maximum, is the JDK's.
            CharArrayWriter chars = new CharArrayWriter();
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            BufferedWriter w = new BufferedWriter(chars);
            BufferedOutputStream o = new BufferedOutputStream(bytes);
            StringBuilder seen = new StringBuilder();
            int[] lengths = {1, 300, 200, 11, 600, 1, 3000, 4000, 300, 9000, 5, 8191, 1, 8192, 100, 7000, 2000};
            for (int i = 0; i < lengths.length; i++) {
                int n = lengths[i];
                char[] c = new char[n];
                Arrays.fill(c, (char) ('a' + i));
                switch (i % 3) {
                    case 0:
                        w.write(c);
                        break;
                    case 1:
                        w.write(new String(c));
                        break;
                    default:
                        for (char x : c) {
                            w.write(x);
                        }
                }
                byte[] d = new byte[n];
                if (i % 2 == 0) {
                    o.write(d, 0, n);
                } else {
                    for (byte x : d) {
                        o.write(x);
                    }
                }
                seen.append(chars.size()).append('/').append(bytes.size()).append(' ');
            }
            w.flush();
            o.flush();
            return seen.append(chars.size()).append('/').append(bytes.size()).toString();
        });
        return b.toString();
    }
}
