package dev.flow.bench.load;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/** A {@link LoadServer} in its own JVM, spawned by the client; stopped by closing its standard input. */
final class ServerProcess implements AutoCloseable {

    /**
     * Server JVM options unless told otherwise. The heap is touched at start-up ({@code
     * AlwaysPreTouch}) so that a run measures the steady state: otherwise, in the first tens of seconds,
     * G1 hands out regions never touched before and each first touch is a page fault, a cost that
     * grows with how much the server allocates and that a long-running server no longer pays (3.5% of
     * a Flow echo server's CPU and 1.4% of MINA's in 15 s runs, measured with perf; bench/RESULTS.md).
     */
    static final String DEFAULT_JVM_ARGS = "-Xms1g -Xmx1g -XX:+UseG1GC -XX:+AlwaysPreTouch";

    private final Process process;
    private final int port;

    private ServerProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * Starts the server JVM and waits (at most 60 s) for its {@code LISTENING} line. Returns
     * {@code null}, after printing why, if the mode cannot run on that JVM.
     */
    static ServerProcess start(Mode mode, int workers, String java, String jvmArgs, PrintStream log) throws IOException {
        return start(mode, "echo", workers, java, jvmArgs, log);
    }

    /** Like {@link #start(Mode, int, String, String, PrintStream)} for a server of {@code protocol} (echo, http, redis). */
    static ServerProcess start(Mode mode, String protocol, int workers, String java, String jvmArgs, PrintStream log)
            throws IOException {
        return start(mode, protocol, Handlers.SAMPLES, workers, java, jvmArgs, log);
    }

    /**
     * Like {@link #start(Mode, String, int, String, String, PrintStream)} with the session code {@code
     * handlers} says (see {@link Handlers}); the server's {@code LISTENING} line, which names its handler
     * class, goes to {@code log}.
     */
    static ServerProcess start(Mode mode, String protocol, Handlers handlers, int workers, String java, String jvmArgs,
            PrintStream log) throws IOException {
        String exe = java != null ? java : System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        List<String> cmd = new ArrayList<>();
        cmd.add(exe);
        if (jvmArgs != null && !jvmArgs.isBlank()) {
            cmd.addAll(Arrays.asList(jvmArgs.trim().split("\\s+")));
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), LoadServer.class.getName(),
                "--mode=" + mode.id(), "--protocol=" + protocol, "--handlers=" + handlers.id(), "--workers=" + workers,
                "--max-seconds=900"));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.redirectErrorStream(true);
        Process p = pb.start();
        BlockingQueue<String> first = new ArrayBlockingQueue<>(16);
        Thread pump = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                boolean listening = false;
                while ((line = r.readLine()) != null) {
                    if (!listening && (line.startsWith("LISTENING") || line.startsWith("SKIPPED"))) {
                        listening = true;
                        if (line.startsWith("LISTENING")) {
                            log.println("  [server] " + line); // before start() returns: it names the handler
                        }
                        first.offer(line);
                        continue;
                    }
                    log.println("  [server] " + line);
                }
            } catch (IOException e) {
                // the process ended
            }
            first.offer("EOF");
        }, "server-output");
        pump.setDaemon(true);
        pump.start();
        String line;
        try {
            line = first.poll(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            line = null;
        }
        if (line == null || line.equals("EOF")) {
            p.destroyForcibly();
            throw new IOException("server JVM " + cmd + " did not start: " + (line == null ? "no LISTENING line within 60 s" : "it exited"));
        }
        if (line.startsWith("SKIPPED")) {
            log.println(line);
            p.destroyForcibly();
            return null;
        }
        int port = Integer.parseInt(line.split("\\s+")[1]);
        return new ServerProcess(p, port);
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        try {
            OutputStream in = process.getOutputStream();
            in.write("quit\n".getBytes(StandardCharsets.UTF_8));
            in.close();
        } catch (IOException e) {
            // already gone
        }
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
