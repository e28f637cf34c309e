package flowtest.conformance.decorators;

import flowtest.support.Async;
import flowtest.support.MemoryTransport;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/** The views called directly by in-scope code: rewritten calls, never refused. */
public final class ViewCalledDirectly implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        MemoryTransport t = new MemoryTransport(new byte[] {0, 0, 1, 2, 'o', 'k', '\n', 'x'});
        String first = Async.later("a").get();
        InputStream in = t.inputStream();
        OutputStream out = t.outputStream();
        byte[] b = new byte[3];
        int n = in.read(b);
        out.write(b, 0, n);
        out.write(in.read());
        out.flush();
        return first + n + ":" + in.readNBytes(b, 0, 3) + ":" + t.written().length();
    }
}
