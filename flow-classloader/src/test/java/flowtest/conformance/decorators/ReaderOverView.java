package flowtest.conformance.decorators;

import flowtest.support.Async;
import flowtest.support.MemoryTransport;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/** {@code BufferedReader.readLine} over an {@code InputStreamReader} of the input view. */
public final class ReaderOverView implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        MemoryTransport t = new MemoryTransport(new byte[] {0, 0, 1, 2, 'o', 'k', '\n', 'x'});
        String first = Async.later("a").get();
        BufferedReader r = new BufferedReader(new InputStreamReader(t.inputStream(), StandardCharsets.ISO_8859_1));
        return first + r.read() + r.readLine();
    }
}
