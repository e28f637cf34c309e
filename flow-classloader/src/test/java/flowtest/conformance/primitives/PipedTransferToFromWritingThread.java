package flowtest.conformance.primitives;

import flowtest.support.Spawn;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** {@code transferTo} from a {@code PipedInputStream} that a plain thread writes: it waits for the writer, reported. */
public final class PipedTransferToFromWritingThread implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        PipedOutputStream out = new PipedOutputStream();
        InputStream in = new PipedInputStream(out);
        Future<Object> written = Spawn.onThread(() -> {
            out.write(new byte[] {9, 8});
            out.close();
            return "written";
        });
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        long n = in.transferTo(sink);
        return n + " " + Arrays.toString(sink.toByteArray()) + ", " + written.get(5, TimeUnit.SECONDS);
    }
}
