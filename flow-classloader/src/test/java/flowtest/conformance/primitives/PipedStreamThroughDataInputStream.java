package flowtest.conformance.primitives;

import flowtest.support.Spawn;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** {@code readInt} of a {@code DataInputStream} and {@code BufferedInputStream} that loaded code made over a pipe. */
public final class PipedStreamThroughDataInputStream implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        PipedOutputStream out = new PipedOutputStream();
        DataInputStream in = new DataInputStream(new BufferedInputStream(new PipedInputStream(out)));
        Future<Object> written = Spawn.onThread(() -> {
            out.write(new byte[] {0, 0, 1, 2});
            out.close();
            return "written";
        });
        return in.readInt() + " " + in.read() + ", " + written.get(5, TimeUnit.SECONDS);
    }
}
