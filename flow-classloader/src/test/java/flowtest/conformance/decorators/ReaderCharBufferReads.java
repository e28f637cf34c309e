package flowtest.conformance.decorators;

import flowtest.support.ChunkedTransport;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Scanner;
import java.util.concurrent.Callable;

/**
 * {@code InputStreamReader.read(CharBuffer)} (the JDK's reader overrides it, and {@code Scanner} reads through it)
 * after {@code read()} over the same reader, over memory and over a transport's input view whose bytes arrive
 * a few at a time: the characters come in order, none lost or read twice; and loaded code's own {@code
 * read(CharBuffer)} over the view suspends.
 */
public final class ReaderCharBufferReads implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        byte[] text = "abcdefghij\nklm".getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder();
        InputStreamReader memory = new InputStreamReader(new ByteArrayInputStream(text), StandardCharsets.UTF_8);
        out.append((char) memory.read());
        CharBuffer heap = CharBuffer.allocate(4);
        out.append(memory.read(heap)).append(heap.flip());
        InputStreamReader view = new InputStreamReader(ChunkedTransport.of(text, 3).inputStream(), StandardCharsets.UTF_8);
        out.append('|').append((char) view.read());
        CharBuffer wrapped = CharBuffer.wrap(new char[6], 1, 4);
        int n = view.read(wrapped);
        out.append(n).append(new String(wrapped.array(), 1, n)).append((char) view.read());
        Scanner s = new Scanner(new InputStreamReader(new ByteArrayInputStream(text), StandardCharsets.UTF_8));
        out.append('|').append(s.nextLine()).append(',').append(s.nextLine()).append(',').append(s.hasNextLine());
        return out.toString();
    }
}
