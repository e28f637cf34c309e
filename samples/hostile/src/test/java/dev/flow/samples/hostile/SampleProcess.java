package dev.flow.samples.hostile;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A sample server started in a child JVM, as an operator would start it: its main class, options and
 * JVM options (a small heap), optionally under a lowered open-file limit ({@code ulimit -n}). Every
 * line the process prints (standard output and error, merged) is kept for the test to count.
 *
 * <p>Thread-safe; one reader thread per process drains its output.
 */
final class SampleProcess implements AutoCloseable {

    private static final String LISTENING = "listening on 127.0.0.1:";

    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;
    private final int port;

    private SampleProcess(Process process, Duration startTimeout) throws IOException {
        this.process = process;
        this.reader = new Thread(this::drain, "sample-output-" + process.pid());
        reader.setDaemon(true);
        reader.start();
        String line = awaitLine(l -> l.startsWith(LISTENING), startTimeout);
        if (line == null) {
            process.destroyForcibly();
            throw new IOException("no listening line within " + startTimeout + "; output:\n" + String.join("\n", lines));
        }
        this.port = Integer.parseInt(line.substring(LISTENING.length()).trim());
    }

    /** A builder for the child JVM: main class first, then JVM options, limits and program arguments. */
    static Builder of(Class<?> mainClass) {
        return new Builder(mainClass.getName());
    }

    /** The port the sample listens on, on 127.0.0.1. */
    int port() {
        return port;
    }

    /** The process id. */
    long pid() {
        return process.pid();
    }

    /** A snapshot of every line printed so far. */
    List<String> lines() {
        return new ArrayList<>(lines);
    }

    /** How many lines printed so far match {@code p}. */
    long count(Predicate<String> p) {
        return lines.stream().filter(p).count();
    }

    /** Waits up to {@code timeout} for a printed line matching {@code p}; returns it, or {@code null}. */
    String awaitLine(Predicate<String> p, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (;;) {
            for (String l : lines) {
                if (p.test(l)) {
                    return l;
                }
            }
            if (System.nanoTime() - deadline >= 0 || (!process.isAlive() && !reader.isAlive())) {
                return null;
            }
            Conditions.pause();
        }
    }

    /** The number of file descriptors the process holds now (Linux {@code /proc}); -1 if unknown. */
    long openDescriptors() {
        Path fd = Path.of("/proc", Long.toString(process.pid()), "fd");
        try (Stream<Path> s = Files.list(fd)) {
            return s.count();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Whether the process is still running. */
    boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Sends SIGTERM and waits up to {@code timeout} for the process to end; returns its exit code, or -1 if
     * it did not. The lines the process prints while it stops are kept ({@link Process#destroy()} would
     * close its output first).
     */
    int terminate(Duration timeout) throws InterruptedException {
        process.toHandle().destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            return -1;
        }
        reader.join(TimeUnit.SECONDS.toMillis(5));
        return process.exitValue();
    }

    /** Kills the process if it still runs (SIGKILL). */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void drain() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String l; (l = in.readLine()) != null; ) {
                lines.add(l);
            }
        } catch (IOException e) {
            lines.add("<output read failed: " + e + ">");
        }
    }

    /** Configures and starts a {@link SampleProcess}. */
    static final class Builder {
        private final String mainClass;
        private final List<String> jvmOptions = new ArrayList<>();
        private final List<String> args = new ArrayList<>();
        private int openFiles;

        private Builder(String mainClass) {
            this.mainClass = mainClass;
        }

        /** Adds JVM options, e.g. {@code -Xmx64m}. */
        Builder jvm(String... options) {
            jvmOptions.addAll(List.of(options));
            return this;
        }

        /** Starts the JVM under {@code ulimit -n openFiles} (a soft and hard limit of the child only). */
        Builder openFiles(int openFiles) {
            this.openFiles = openFiles;
            return this;
        }

        /** Adds program arguments; {@code --port 0} is always passed first. */
        Builder args(String... programArgs) {
            args.addAll(List.of(programArgs));
            return this;
        }

        /** Starts the process and waits up to 30 s for its listening line. */
        SampleProcess start() throws IOException {
            List<String> cmd = new ArrayList<>();
            cmd.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
            cmd.addAll(jvmOptions);
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass, "--port", "0"));
            cmd.addAll(args);
            if (openFiles > 0) {
                List<String> quoted = new ArrayList<>();
                for (String c : cmd) {
                    quoted.add("'" + c.replace("'", "'\\''") + "'");
                }
                cmd = List.of("/bin/bash", "-c", "ulimit -n " + openFiles + " && exec " + String.join(" ", quoted));
            }
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            return new SampleProcess(p, Duration.ofSeconds(30));
        }
    }
}
