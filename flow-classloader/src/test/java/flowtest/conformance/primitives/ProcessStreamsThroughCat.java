package flowtest.conformance.primitives;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** Writes to a child process's input ({@code cat}) and reads its output: both wait inside the JDK for the child, reported. */
public final class ProcessStreamsThroughCat implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Process p = new ProcessBuilder("cat").start();
        try {
            OutputStream in = p.getOutputStream();
            in.write("hello".getBytes(StandardCharsets.US_ASCII));
            in.close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            return out + ", exited " + p.waitFor(20, TimeUnit.SECONDS);
        } finally {
            p.destroyForcibly();
        }
    }
}
