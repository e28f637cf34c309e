package dev.flow.bench.hostile;

import dev.flow.FlowScheduler;
import dev.flow.Transport;
import dev.flow.TransportConfig;
import dev.flow.bench.VirtualThreads;
import dev.flow.bench.hostile.probe.StampEcho;
import dev.flow.loader.ContinuationClassLoader;
import dev.flow.mina.Dispatch;
import dev.flow.mina.FlowServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.mina.core.filterchain.IoFilterAdapter;
import org.apache.mina.core.session.IoSession;

/**
 * Where a good session's request time goes while a reset flood runs (#14): per request, the client's
 * send time, the time the handler got the line and the time the client had the answer ({@code
 * System.nanoTime()}, one clock for all processes on Linux). (No filter stamps the I/O thread's read: a
 * filter of the user's turns off Flow's direct writes.)
 *
 * <pre>
 * java -Xmx64m -cp benchmarks.jar dev.flow.bench.hostile.LatencyProbe server workers|io-threads|virtual [first-byte] [stamp]
 * java -cp benchmarks.jar dev.flow.bench.hostile.LatencyProbe client PORT [REQUESTS] [FLOOD_RATE]
 * java -cp benchmarks.jar dev.flow.bench.hostile.LatencyProbe new PORT [CONNECTIONS] [FLOOD_RATE]
 * </pre>
 *
 * <p>The server prints {@code port N} and serves {@link StampEcho} (a line echo that adds the stamps;
 * as a flow on 2 workers in the two dispatches, on a virtual thread per connection as the baseline)
 * until its standard input ends. The client connects one keep-alive session, sends 2,000 unrecorded
 * lines, then {@code REQUESTS} (default 5,000) one per ms unloaded, then starts {@link ResetFlood} at
 * {@code FLOOD_RATE} resets a second (default 3,500) in a JVM of its own and sends {@code REQUESTS}
 * more; per phase it prints percentiles of the whole round trip and of its two stages, and the mean
 * stages of the slowest 1%: up (sent to the handler's read returning the line: the kernel, the I/O
 * thread's turn and, with workers, the hop to a worker) and down (the handler's write to the client's
 * read of the answer).
 *
 * <p>{@code first-byte} turns on {@code FlowServer.Builder.clientSpeaksFirst}. {@code new} measures new
 * connections instead: {@code CONNECTIONS} (default 200) unloaded, then as many from the flood's start
 * on, one every 20 ms, each connecting, sending one line at once and reading the answer; it prints, per
 * phase, p50/p90/max of each stage from the start of the connect: connected (the client's connect
 * returned), session made (the server made the session, or the baseline accepted it; ms resolution),
 * opened (its I/O thread opened it), handler started, line read and answered; then the first ten
 * connections' answered times. The handler stamps the last three stages; the server's come only with
 * {@code stamp}, which adds a filter to Flow's sessions (so turns their direct writes off: compare the
 * answered times without it).
 *
 * <p>Threads: the server's are Flow's (or one per connection); the client runs on its main thread.
 */
public final class LatencyProbe {

    private LatencyProbe() {
    }

    /** Runs the server or the client (see the class comment); exits 2 on bad arguments. */
    public static void main(String[] args) throws Exception {
        try {
            if (args.length >= 2 && args[0].equals("server") && List.of("workers", "io-threads", "virtual").contains(args[1])
                    && List.of("first-byte", "stamp").containsAll(List.of(args).subList(2, args.length))) {
                List<String> flags = List.of(args).subList(2, args.length);
                server(args[1], flags.contains("first-byte"), flags.contains("stamp"));
                return;
            }
            if (args.length >= 2 && args.length <= 4 && (args[0].equals("client") || args[0].equals("new"))) {
                int port = Integer.parseInt(args[1]);
                int rate = args.length > 3 ? Integer.parseInt(args[3]) : 3_500;
                if (args[0].equals("client")) {
                    client(port, args.length > 2 ? Integer.parseInt(args[2]) : 5_000, rate);
                } else {
                    newConnections(port, args.length > 2 ? Integer.parseInt(args[2]) : 200, rate);
                }
                return;
            }
        } catch (NumberFormatException e) {
            System.err.println("LatencyProbe: " + e.getMessage() + " (expected: an integer)");
        }
        System.err.println("usage: LatencyProbe server workers|io-threads|virtual [first-byte] [stamp]"
                + " | client PORT [REQUESTS] [FLOOD_RATE] | new PORT [CONNECTIONS] [FLOOD_RATE]");
        System.exit(2);
    }

    private static void server(String mode, boolean firstByte, boolean stamp) throws Exception {
        InetSocketAddress bind = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        TransportConfig config = TransportConfig.builder().build();
        AutoCloseable closer;
        int port;
        if (mode.equals("virtual")) {
            ServerSocket ss = new ServerSocket();
            ss.bind(bind, 4096);
            Thread acceptor = new Thread(() -> {
                while (!ss.isClosed()) {
                    try {
                        Socket s = ss.accept();
                        if (stamp) {
                            SessionStamps.put(s.getRemoteSocketAddress(), System.currentTimeMillis(), System.nanoTime());
                        }
                        VirtualThreads.start(() -> {
                            try (Transport t = Transport.ofSocket(s, config)) {
                                new StampEcho(t).call();
                            } catch (IOException | RuntimeException e) {
                                // a reset: the flood's
                            }
                        });
                    } catch (IOException e) {
                        // closed, or a failed accept
                    }
                }
            }, "probe-acceptor");
            acceptor.start();
            port = ss.getLocalPort();
            closer = ss;
        } else {
            ContinuationClassLoader loader = ContinuationClassLoader.builder()
                    .include("dev.flow.bench.hostile.probe").build();
            FlowScheduler scheduler = FlowScheduler.builder().workers(2).name("probe").build();
            FlowServer.Builder b = FlowServer.builder().scheduler(scheduler)
                    .dispatch(mode.equals("io-threads") ? Dispatch.IO_THREADS : Dispatch.WORKERS)
                    .config(config).backlog(4096).clientSpeaksFirst(firstByte)
                    .handler(loader, StampEcho.class.getName());
            if (stamp) {
                // a filter of the user's turns Flow's direct writes off: only for the new-connection probe
                b.filter("stamps", new IoFilterAdapter() {
                    @Override
                    public void sessionOpened(NextFilter next, IoSession session) throws Exception {
                        SessionStamps.put(session.getRemoteAddress(), session.getCreationTime(), System.nanoTime());
                        super.sessionOpened(next, session);
                    }
                });
            }
            FlowServer server = b.start(bind);
            port = ((InetSocketAddress) server.localAddress()).getPort();
            closer = () -> {
                server.close();
                scheduler.close();
            };
        }
        System.out.println("port " + port);
        System.out.flush();
        while (System.in.read() >= 0) {
            // serve until the standard input ends
        }
        closer.close();
        System.exit(0);
    }

    private static void client(int port, int requests, int floodRate) throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setTcpNoDelay(true);
            s.setSoTimeout(30_000);
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
            OutputStream out = s.getOutputStream();
            run(in, out, 2_000);
            System.out.println(summary("none", run(in, out, requests)));
            Process flood = startFlood(port, floodRate);
            try {
                System.out.println(summary("reset-flood " + floodRate + "/s", run(in, out, requests)));
            } finally {
                flood.destroy();
                flood.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Starts {@link ResetFlood} at {@code rate} resets a second in a JVM of its own; returns once it floods. */
    private static Process startFlood(int port, int rate) throws IOException {
        String java = System.getProperty("java.home") + "/bin/java";
        Process flood = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                ResetFlood.class.getName(), String.valueOf(port), "1000000", "2", "60", String.valueOf(rate))
                .redirectErrorStream(true).start();
        InputStream fo = flood.getInputStream();
        BufferedReader fr = new BufferedReader(new InputStreamReader(fo, StandardCharsets.UTF_8));
        String l;
        while ((l = fr.readLine()) != null && !l.startsWith("flooding ")) {
            // wait until it floods
        }
        return flood;
    }

    private static void newConnections(int port, int n, int floodRate) throws Exception {
        System.out.println(newSummary("none", connectEach(port, n)));
        Process flood = startFlood(port, floodRate);
        try {
            System.out.println(newSummary("reset-flood " + floodRate + "/s", connectEach(port, n)));
        } finally {
            flood.destroy();
            flood.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Opens {@code n} new connections one after another, one every 20 ms at most, each sending one line at
     * once and closing after the answer; returns per connection {connect start (ms), connect start,
     * connected, session made (ms), session opened, handler started, handler got the line, answered}
     * (ns, but the two ms stamps of {@link System#currentTimeMillis()}).
     */
    private static long[][] connectEach(int port, int n) throws IOException {
        long[][] r = new long[n][];
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            parkUntil(start + i * 20_000_000L);
            long wall = System.currentTimeMillis();
            long t0 = System.nanoTime();
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
                long connected = System.nanoTime();
                s.setTcpNoDelay(true);
                s.setSoTimeout(30_000);
                s.getOutputStream().write((t0 + "\n").getBytes(StandardCharsets.US_ASCII));
                String answer = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII)).readLine();
                long got = System.nanoTime();
                String[] f = answer == null ? new String[0] : answer.split(" ");
                if (f.length != 5 || Long.parseLong(f[0]) != t0) {
                    throw new IOException("answer: " + answer + " (expected: " + t0 + " GOT STARTED CREATED OPENED)");
                }
                r[i] = new long[] {wall, t0, connected, Long.parseLong(f[3]), Long.parseLong(f[4]), Long.parseLong(f[2]),
                    Long.parseLong(f[1]), got};
            }
        }
        return r;
    }

    /** Percentiles (p50, p90, max, in µs) of each new-connection stage from the connect's start. */
    private static String newSummary(String phase, long[][] r) {
        int n = r.length;
        String[] names = {"connected", "session made", "opened", "handler started", "line read", "answered"};
        long[][] stage = new long[names.length][n];
        for (int i = 0; i < n; i++) {
            long[] x = r[i];
            stage[0][i] = x[2] - x[1];
            stage[1][i] = x[3] == 0 ? -1 : (x[3] - x[0]) * 1000;
            stage[2][i] = x[4] == 0 ? -1 : (x[4] - x[1]) / 1000;
            stage[3][i] = (x[5] - x[1]) / 1000;
            stage[4][i] = (x[6] - x[1]) / 1000;
            stage[5][i] = (x[7] - x[1]) / 1000;
        }
        for (int i = 0; i < n; i++) {
            stage[0][i] /= 1000;
        }
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%s: %d new connections, from the connect's start (µs) p50/p90/max:", phase, n));
        for (int k = 0; k < names.length; k++) {
            b.append(String.format(Locale.ROOT, " | %s %d/%d/%d", names[k], pct(stage[k], 0.5), pct(stage[k], 0.9), pct(stage[k], 1)));
        }
        b.append(" | first 10 answered (ms):");
        for (int i = 0; i < Math.min(10, n); i++) {
            b.append(String.format(Locale.ROOT, " %.1f", stage[5][i] / 1e3));
        }
        return b.append(" | load ").append(load()).toString();
    }

    /** Parks until {@link System#nanoTime()} reaches {@code due}. */
    private static void parkUntil(long due) {
        for (long w = due - System.nanoTime(); w > 0; w = due - System.nanoTime()) {
            LockSupport.parkNanos(w);
        }
    }

    /** Sends {@code n} lines, one per ms; returns per request {sent, handler, answered}. */
    private static long[][] run(BufferedReader in, OutputStream out, int n) throws IOException {
        long[][] r = new long[n][];
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            parkUntil(start + i * 1_000_000L);
            long sent = System.nanoTime();
            out.write((sent + "\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String answer = in.readLine();
            long got = System.nanoTime();
            if (answer == null) {
                throw new IOException("end of stream after " + i + " requests");
            }
            String[] f = answer.split(" ");
            if (f.length < 2 || Long.parseLong(f[0]) != sent) {
                throw new IOException("answer: " + answer + " (expected: " + sent + " HANDLER)");
            }
            r[i] = new long[] {sent, Long.parseLong(f[1]), got};
        }
        return r;
    }

    private static String summary(String phase, long[][] r) {
        int n = r.length;
        long[] total = new long[n];
        long[] up = new long[n];
        long[] down = new long[n];
        for (int i = 0; i < n; i++) {
            total[i] = r[i][2] - r[i][0];
            up[i] = r[i][1] - r[i][0];
            down[i] = r[i][2] - r[i][1];
        }
        long p99 = pct(total, 0.99);
        int slow = 0;
        double upSlow = 0;
        double downSlow = 0;
        for (int i = 0; i < n; i++) {
            if (total[i] >= p99) {
                slow++;
                upSlow += up[i] / 1e3;
                downSlow += down[i] / 1e3;
            }
        }
        return String.format(Locale.ROOT, "%s: n=%d total p50 %d p99 %d p99.9 %d max %d µs | up p50 %d p99 %d"
                        + " | down p50 %d p99 %d | slowest 1%% (%d): up %.0f down %.0f µs (mean) | load %s",
                phase, n, pct(total, 0.5) / 1000, p99 / 1000, pct(total, 0.999) / 1000, pct(total, 1) / 1000,
                pct(up, 0.5) / 1000, pct(up, 0.99) / 1000, pct(down, 0.5) / 1000, pct(down, 0.99) / 1000,
                slow, upSlow / slow, downSlow / slow, load());
    }
    private static long pct(long[] v, double q) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, (int) Math.ceil(q * s.length) - 1)];
    }

    private static String load() {
        try {
            return new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get("/proc/loadavg")),
                    StandardCharsets.US_ASCII).substring(0, 14).trim();
        } catch (IOException e) {
            return "?";
        }
    }
}
