package flowtest.conformance.decorators;

import flowtest.support.Async;
import flowtest.support.MemoryTransport;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/** {@code InputStream.transferTo}, a JDK method of the view itself, reads it through an uninstrumented frame. */
public final class TransferToFromView implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        MemoryTransport t = new MemoryTransport(new byte[] {0, 0, 1, 2, 'o', 'k', '\n', 'x'});
        String first = Async.later("a").get();
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        long n = t.inputStream().transferTo(sink);
        return first + n + ":" + sink.size();
    }
}
