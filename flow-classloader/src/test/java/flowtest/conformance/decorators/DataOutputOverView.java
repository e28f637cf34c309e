package flowtest.conformance.decorators;

import flowtest.support.Async;
import flowtest.support.MemoryTransport;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/** {@code DataOutputStream.writeInt} and {@code flush} over the output view. */
public final class DataOutputOverView implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        MemoryTransport t = new MemoryTransport(new byte[] {0, 0, 1, 2, 'o', 'k', '\n', 'x'});
        String first = Async.later("a").get();
        DataOutputStream out = new DataOutputStream(t.outputStream());
        out.writeInt(0x41424344);
        out.flush();
        return first + t.written();
    }
}
