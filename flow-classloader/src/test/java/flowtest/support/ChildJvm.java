package flowtest.support;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A JVM of its own for a test (the agent's, the build-time route's): the running JDK's {@code java} with
 * the given options and arguments, its output (standard output and error, merged) kept as lines.
 * Immutable once run.
 */
public final class ChildJvm {

    /** The exit code, or -1 if the JVM was destroyed after the deadline. */
    public final int exitCode;
    /** Every line printed. */
    public final List<String> lines;

    private ChildJvm(int exitCode, List<String> lines) {
        this.exitCode = exitCode;
        this.lines = lines;
    }

    /**
     * Runs {@code java <args>} and waits up to {@code deadline}; destroys it, and the processes it started,
     * after that or when the wait is interrupted (then the interrupt flag stays set and this throws).
     */
    public static ChildJvm run(List<String> args, Duration deadline) throws IOException, InterruptedException {
        return run(args, Map.of(), deadline);
    }

    /** {@link #run(List, Duration)} with {@code env} added to (or replacing in) this process's environment. */
    public static ChildJvm run(List<String> args, Map<String, String> env, Duration deadline) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        cmd.addAll(args);
        ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true);
        b.environment().putAll(env);
        Process p = b.start();
        p.getOutputStream().close();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Thread reader = new Thread(() -> {
            try {
                p.getInputStream().transferTo(out);
            } catch (IOException ignored) {
                // the process was destroyed: what was read is kept
            }
        }, "child-jvm-output");
        reader.start();
        boolean ended;
        try {
            ended = p.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            destroyWithDescendants(p);
            Thread.currentThread().interrupt();
            throw e;
        }
        if (!ended) {
            destroyWithDescendants(p);
        }
        reader.join(5_000);
        List<String> lines = List.of(out.toString(StandardCharsets.UTF_8).split("\\R"));
        return new ChildJvm(ended ? p.exitValue() : -1, lines);
    }

    /**
     * Kills {@code p} and every process it started (found before it dies, while they are still its
     * descendants), then waits up to 10 s for {@code p} to end, not interruptibly: when this returns after an
     * interrupt, the child is gone all the same.
     */
    private static void destroyWithDescendants(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        boolean interrupted = Thread.interrupted();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try {
            while (p.isAlive() && System.nanoTime() < deadline) {
                try {
                    p.waitFor(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The output, for assertion messages. */
    public String output() {
        return String.join("\n", lines);
    }

    /** The first line starting with {@code prefix}, or {@code null}. */
    public String line(String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).findFirst().orElse(null);
    }
}
