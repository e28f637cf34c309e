package flowtest.conformance.decorators;

import flowtest.support.Async;
import flowtest.support.MemoryTransport;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/** {@code DataInputStream.readInt} over the input view, its bytes already buffered: Flow's, no pinned site. */
public final class DataInputOverView implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        MemoryTransport t = new MemoryTransport(new byte[] {0, 0, 1, 2, 'o', 'k', '\n', 'x'});
        String first = Async.later("a").get();
        return first + new DataInputStream(t.inputStream()).readInt();
    }
}
