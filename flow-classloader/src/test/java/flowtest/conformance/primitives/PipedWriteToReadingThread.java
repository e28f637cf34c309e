package flowtest.conformance.primitives;

import flowtest.support.Spawn;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Writes to a {@code PipedOutputStream} past its buffer while a plain thread reads: the wait for room is reported. */
public final class PipedWriteToReadingThread implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        PipedInputStream in = new PipedInputStream(4);
        PipedOutputStream out = new PipedOutputStream(in);
        Future<byte[]> read = Spawn.onThread(in::readAllBytes);
        try {
            out.write(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
        } finally {
            out.close();
        }
        return "read " + read.get(5, TimeUnit.SECONDS).length;
    }
}
