package flowtest.conformance.primitives;

import java.io.File;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** {@code Process.waitFor} with a timeout shorter than a JVM's start, then without one. */
public final class ProcessWaitFor implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        Process p = new ProcessBuilder(java, "-version").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        boolean early = p.waitFor(1, TimeUnit.MILLISECONDS);
        int exit = p.waitFor();
        return "ended within 1 ms: " + early + ", exit " + exit + ", then " + p.waitFor(1, TimeUnit.SECONDS);
    }
}
