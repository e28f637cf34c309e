package dev.flow.samples.tester;

import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.TransportConfig;
import dev.flow.loader.ContinuationClassLoader;
import dev.flow.mina.FlowServer;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Many concurrent TCP sessions through a {@link FlowServer} in continuation mode on at most 2
 * workers. The clients run in a separate JVM ({@link ManySessionsClient}) because the open-files limit
 * here is 20,000 per process: each side holds one descriptor per connection.
 *
 * <p>Arguments: [connections, default 10000] [workers, default 2] [time limit in seconds, default 120].
 */
public final class ManySessions {

    private static final int OPEN_FILES_LIMIT = 20_000;

    private ManySessions() {
    }

    /** Runs the experiment and prints the result; exits non-zero if any session failed. */
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int workers = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        int limit = args.length > 2 ? Integer.parseInt(args[2]) : 120;
        if (n + 200 > OPEN_FILES_LIMIT) {
            System.err.println("connections: " + n + " (expected: <= " + (OPEN_FILES_LIMIT - 200)
                    + ": the open-files limit is " + OPEN_FILES_LIMIT + " per process; one JVM holds one descriptor per session)");
            System.exit(2);
        }
        ContinuationClassLoader loader = ContinuationClassLoader.builder()
                .include("dev.flow.samples.tester.server").strict(true).build();
        try (FlowScheduler scheduler = FlowScheduler.builder().workers(workers).name("sessions").build();
             FlowServer server = FlowServer.builder()
                     .scheduler(scheduler)
                     .config(TransportConfig.builder().maxLineLength(1024).build())
                     .backlog(4096)
                     .handler(loader, "dev.flow.samples.tester.server.LineEchoHandler")
                     .start(new InetSocketAddress("127.0.0.1", 0))) {
            int port = ((InetSocketAddress) server.localAddress()).getPort();
            String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
            ProcessBuilder pb = new ProcessBuilder(List.of(java, "-Xmx1g", "-cp", System.getProperty("java.class.path"),
                    ManySessionsClient.class.getName(), "127.0.0.1", String.valueOf(port), String.valueOf(n),
                    String.valueOf(limit)));
            pb.redirectErrorStream(true);
            long start = System.nanoTime();
            Process p = pb.start();
            java.util.concurrent.atomic.AtomicLong maxSuspended = new java.util.concurrent.atomic.AtomicLong();
            java.util.concurrent.atomic.AtomicLong maxSessions = new java.util.concurrent.atomic.AtomicLong();
            Thread sampler = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    maxSuspended.accumulateAndGet(scheduler.stats().suspended(), Math::max);
                    maxSessions.accumulateAndGet(server.openSessions(), Math::max);
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "sampler");
            sampler.setDaemon(true);
            sampler.start();
            String result = null;
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    System.out.println("  [client] " + line);
                    if (line.startsWith("RESULT")) {
                        result = line;
                    }
                }
            }
            if (!p.waitFor(limit, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            long wallMs = (System.nanoTime() - start) / 1_000_000;
            sampler.interrupt();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while ((server.openSessions() > 0 || !scheduler.stats().isIdle()) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            FlowStats s = scheduler.stats();
            System.out.printf(Locale.ROOT, "sessions=%d workers=%d accepted=%d peakOpenSessions=%d peakSuspended=%d"
                            + " completed=%d failed=%d wall=%d ms liveThreads=%d idleAfter=%s client=%s exit=%d%n",
                    n, workers, server.acceptedSessions(), maxSessions.get(), maxSuspended.get(), s.completed(), s.failed(), wallMs,
                    ManagementFactory.getThreadMXBean().getThreadCount(), s.isIdle(), result, p.exitValue());
            if (result == null || p.exitValue() != 0 || s.completed() != n || s.failed() != 0) {
                System.exit(1);
            }
        }
    }
}
