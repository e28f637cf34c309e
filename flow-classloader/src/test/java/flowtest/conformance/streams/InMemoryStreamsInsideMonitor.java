package flowtest.conformance.streams;

import flowtest.support.Async;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.Callable;

/**
 * In-memory streams used inside {@code synchronized}: they never block, so even a strict loader must
 * run them (only a transport's own stream views are suspension points), around a real await outside.
 */
public final class InMemoryStreamsInsideMonitor implements Callable<Object> {
    private final Object lock = new Object();

    @Override
    public Object call() throws Exception {
        int first = Async.later(7).get();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        synchronized (lock) {
            OutputStream out = bytes;
            out.write(first);
            out.write(new byte[] {1, 2, 3});
            out.write(new byte[] {9, 8, 7, 6}, 1, 2);
            out.flush();
        }
        int sum = 0;
        synchronized (lock) {
            InputStream in = new ByteArrayInputStream(bytes.toByteArray());
            byte[] two = new byte[2];
            sum += in.read();
            sum += in.read(two);
            sum += in.read(two, 0, 1);
            sum += in.readNBytes(two, 0, 2);
        }
        return bytes.size() + ":" + sum + ":" + Async.later("done").get();
    }
}
