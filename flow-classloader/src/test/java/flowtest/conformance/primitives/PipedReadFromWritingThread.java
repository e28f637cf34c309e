package flowtest.conformance.primitives;

import flowtest.support.Spawn;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** A read of a {@code PipedInputStream} that a plain thread writes: the wait has no suspendable form, reported. */
public final class PipedReadFromWritingThread implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        PipedOutputStream out = new PipedOutputStream();
        InputStream in = new PipedInputStream(out);
        java.util.concurrent.Future<Object> written = Spawn.onThread(() -> {
            out.write(new byte[] {7, 8});
            out.close();
            return "written";
        });
        byte[] two = new byte[2];
        int n = in.readNBytes(two, 0, 2);
        int end = in.read();
        return n + " bytes " + two[0] + two[1] + ", then " + end + ", " + written.get(5, TimeUnit.SECONDS);
    }
}
