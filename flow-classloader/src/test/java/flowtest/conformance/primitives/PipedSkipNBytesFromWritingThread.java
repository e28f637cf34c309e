package flowtest.conformance.primitives;

import flowtest.support.Spawn;
import java.io.EOFException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** {@code skipNBytes} of a {@code PipedInputStream} past what a plain thread writes: waits, reported; then the JDK's EOF. */
public final class PipedSkipNBytesFromWritingThread implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        PipedOutputStream out = new PipedOutputStream();
        InputStream in = new PipedInputStream(out);
        Future<Object> written = Spawn.onThread(() -> {
            out.write(new byte[] {1, 2});
            out.close();
            return "written";
        });
        try {
            in.skipNBytes(5);
            return "skipped";
        } catch (EOFException e) {
            return "EOF " + e.getMessage() + ", " + written.get(5, TimeUnit.SECONDS);
        }
    }
}
