package flowtest.conformance.primitives;

import flowtest.support.Spawn;
import java.io.BufferedReader;
import java.io.PipedReader;
import java.io.PipedWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** {@code readLine} of a {@code BufferedReader} that loaded code made over a {@code PipedReader} a plain thread writes. */
public final class PipedReaderThroughBufferedReader implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        PipedWriter w = new PipedWriter();
        BufferedReader r = new BufferedReader(new PipedReader(w));
        Future<Object> written = Spawn.onThread(() -> {
            w.write("one\ntwo\n");
            w.close();
            return "written";
        });
        return r.readLine() + " " + r.readLine() + " " + r.readLine() + ", " + written.get(5, TimeUnit.SECONDS);
    }
}
