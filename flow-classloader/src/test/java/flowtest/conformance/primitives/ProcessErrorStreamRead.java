package flowtest.conformance.primitives;

import java.io.InputStream;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** A read of a child process's error stream: it waits inside the JDK for the child, reported. */
public final class ProcessErrorStreamRead implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Process p = new ProcessBuilder("sh", "-c", "printf e >&2").start();
        try {
            InputStream err = p.getErrorStream();
            int first = err.read();
            int end = err.read();
            return (char) first + ", then " + end + ", exited " + p.waitFor(20, TimeUnit.SECONDS);
        } finally {
            p.destroyForcibly();
        }
    }
}
