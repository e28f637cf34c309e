package dev.flow.samples.routes;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A sample server in a JVM of its own: the running JDK's {@code java} with the given arguments, its
 * output (standard output and error, merged) written to a file and read from there. (Read from a pipe
 * instead, the last lines are lost when the JVM halts in its shutdown hook: the JDK closes the pipe on
 * exit under a reader still blocked in it, "Stream closed".) Thread-safe; {@link #close()} destroys
 * the process if it still runs.
 */
final class SampleJvm implements AutoCloseable {

    private static final String LISTENING = "listening on 127.0.0.1:";
    private static final long POLL_MILLIS = 10;

    private final Process process;
    private final Path log;

    private SampleJvm(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Starts {@code java <args>}, its output written to {@code log}. */
    static SampleJvm start(List<String> args, Path log) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File(File.separatorChar == '/' ? "/dev/null" : "NUL"))).start();
        return new SampleJvm(p, log);
    }

    /**
     * Waits up to {@code deadline} for the line {@code listening on 127.0.0.1:P} and returns {@code P}.
     *
     * @throws IllegalStateException with the output if the server did not get there (it exited, or the deadline passed)
     */
    int awaitPort(Duration deadline) throws InterruptedException {
        String l = awaitLine(LISTENING, deadline);
        if (l == null) {
            throw new IllegalStateException("no \"" + LISTENING + "\" within " + deadline + " (alive: " + process.isAlive()
                    + "):\n" + output());
        }
        return Integer.parseInt(l.substring(LISTENING.length()).trim());
    }

    /**
     * The first complete line starting with {@code prefix}, waiting up to {@code deadline} for it while the
     * JVM runs; {@code null} if none came.
     */
    String awaitLine(String prefix, Duration deadline) throws InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        while (true) {
            boolean ended = !process.isAlive();
            for (String l : lines()) {
                if (l.startsWith(prefix)) {
                    return l;
                }
            }
            if (ended || System.nanoTime() - end >= 0) {
                return null;
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    /**
     * Sends SIGTERM (the sample's graceful stop) and waits up to {@code deadline} for the JVM to exit;
     * returns its exit status, or -1 if it had to be destroyed forcibly.
     */
    int stop(Duration deadline) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            return -1;
        }
        return process.exitValue();
    }

    /** Every complete line printed so far. */
    List<String> lines() {
        String text;
        try {
            text = Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int end = text.lastIndexOf('\n');
        return end < 0 ? List.of() : List.of(text.substring(0, end).split("\\R", -1));
    }

    /** The output so far, for assertion messages. */
    String output() {
        return String.join("\n", lines());
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
