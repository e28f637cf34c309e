package flowtest.conformance.primitives;

import flowtest.support.Spawn;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** {@code readNBytes(int)} of a {@code PipedInputStream} (its own type) that a plain thread writes: reported. */
public final class PipedReadNBytesCountFromWritingThread implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        PipedOutputStream out = new PipedOutputStream();
        PipedInputStream in = new PipedInputStream(out);
        Future<Object> written = Spawn.onThread(() -> {
            out.write(new byte[] {4, 5, 6, 7});
            out.close();
            return "written";
        });
        return Arrays.toString(in.readNBytes(3)) + ", " + written.get(5, TimeUnit.SECONDS);
    }
}
