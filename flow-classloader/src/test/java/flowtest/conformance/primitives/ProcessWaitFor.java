package flowtest.conformance.primitives;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code Process.waitFor} with a short timeout on a JVM that cannot have ended (HotSpot's {@code PauseAtStartup}
 * holds it at start until its pause file is deleted), then without one once it is let go.
 */
public final class ProcessWaitFor implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Path dir = Files.createTempDirectory("process-wait-for");
        Path pause = dir.resolve("pause");
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        Process p = new ProcessBuilder(java, "-XX:+UnlockDiagnosticVMOptions", "-XX:+PauseAtStartup",
                "-XX:PauseAtStartupFile=" + pause, "-version").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            boolean early = p.waitFor(1, TimeUnit.MILLISECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!Files.exists(pause) && p.isAlive() && System.nanoTime() - deadline < 0) {
                Thread.sleep(5);
            }
            boolean paused = Files.deleteIfExists(pause);
            int exit = p.waitFor();
            return "ended within 1 ms: " + early + ", paused " + paused + ", exit " + exit + ", then "
                    + p.waitFor(1, TimeUnit.SECONDS);
        } finally {
            p.destroyForcibly();
            Files.deleteIfExists(pause);
            Files.delete(dir);
        }
    }
}
