package flowtest.conformance.primitives;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.concurrent.Callable;

/**
 * A read of {@code System.in} (here set to bytes in memory for the run, and restored): {@code System.in}
 * is the process's standard input, which waits inside the JDK, so its reads are reported whatever it is.
 */
public final class SystemInRead implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        InputStream saved = System.in;
        System.setIn(new ByteArrayInputStream(new byte[] {9}));
        try {
            int first = System.in.read();
            int end = System.in.read();
            return first + ", then " + end;
        } finally {
            System.setIn(saved);
        }
    }
}
