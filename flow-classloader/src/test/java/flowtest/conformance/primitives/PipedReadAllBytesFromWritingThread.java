package flowtest.conformance.primitives;

import flowtest.support.Spawn;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** {@code readAllBytes} of a {@code PipedInputStream} that a plain thread writes: it waits for the writer, reported. */
public final class PipedReadAllBytesFromWritingThread implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        PipedOutputStream out = new PipedOutputStream();
        InputStream in = new PipedInputStream(out);
        Future<Object> written = Spawn.onThread(() -> {
            out.write(new byte[] {1, 2, 3});
            out.close();
            return "written";
        });
        return Arrays.toString(in.readAllBytes()) + ", " + written.get(5, TimeUnit.SECONDS);
    }
}
