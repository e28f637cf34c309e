package dev.flow.bench.load;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The load-driving client: N line-echo connections multiplexed over a few NIO selector threads (so
 * the client does not measure itself), a closed loop with think time or an open loop at a fixed
 * rate, warm-up, steady state and ramp-down, HdrHistogram latencies and the validity checks of
 * {@link LoadResult}. Every loop is bounded in count and time. Traffic goes to 127.0.0.1 only.
 *
 * <p>Closed loop: each connection sends a line, waits for its echo, thinks {@code think} ms (fixed;
 * the first send of each connection is spread uniformly over one think time) and sends the next.
 * Latency is measured from the actual send. Open loop: each connection has a schedule of intended
 * send times, {@code rate / connections} per second; requests are pipelined (at most
 * {@code maxOutstanding} per connection) and latency is measured from the <em>intended</em> send
 * time, so a slow server is charged for the requests it delayed (no coordinated omission).
 */
public final class LoadClient {

    /** Settings of one run. */
    public static final class Config {
        public int connections = 100;
        /** Closed-loop think time, ms; ignored in open loop. */
        public double thinkMs = 0;
        /** Open-loop total rate, requests per second; 0 = closed loop. */
        public double rate = 0;
        public double warmupS = 3;
        public double steadyS = 10;
        public double rampdownS = 2;
        public int ioThreads = 2;
        /** Request line length in bytes, without the newline. */
        public int payload = 32;
        public double timeoutS = 10;
        public int maxOutstanding = 64;
        /** Little's law tolerance, as a fraction. */
        public double littleTolerance = 0.15;
        /** Think-time (or open-loop send lateness) tolerance: max(fraction * think, floor ms). */
        public double thinkTolerance = 0.10;
        public double thinkFloorMs = 1;
        /** Fairness: min/median of per-connection steady throughput must be at least this. */
        public double fairnessMin = 0.5;
        /** Client saturated when its CPU is at least this fraction of its limit. */
        public double saturation = 0.90;
        public double connectTimeoutS = 60;
        public boolean progress = true;
        /** What the connections speak; default the line echo. */
        public LoadProtocol protocol = LoadProtocol.ECHO;
        /** Closed loop: requests sent together on each turn (pipelined); the next turn starts when all are answered. */
        public int pipeline = 1;
        /** The session code of a spawned HTTP or RESP server: the samples' (default) or the plain handlers. */
        Handlers handlers = Handlers.SAMPLES;

        boolean closedLoop() {
            return rate <= 0;
        }

        String describe() {
            return protocol.id() + ", " + (closedLoop()
                    ? String.format(Locale.ROOT, "closed loop, %d connections, think %.1f ms%s", connections, thinkMs,
                            pipeline > 1 ? ", " + pipeline + " requests pipelined per turn" : "")
                    : String.format(Locale.ROOT, "open loop, %d connections, %.0f req/s", connections, rate));
        }
    }

    private LoadClient() {
    }

    // ------------------------------------------------------------------------------------ run

    /**
     * Runs one measurement against {@code port} on 127.0.0.1. {@code serverPid} (or -1) is read in
     * /proc for the server's CPU time, threads and RSS. Progress lines go to {@code out}.
     */
    public static LoadResult run(Config c, int port, long serverPid, PrintStream out) throws Exception {
        LoadResult r = new LoadResult();
        r.connections = c.connections;
        r.thinkMs = c.closedLoop() ? c.thinkMs : 0;
        r.offeredRate = c.rate;
        r.warmupS = c.warmupS;
        r.steadyS = c.steadyS;
        long fdLimit = ProcStats.openFilesLimit();
        if (fdLimit > 0 && c.connections + 300 > fdLimit) {
            r.limit = "open files per process: limit " + fdLimit + ", needed about " + (c.connections + 300)
                    + " in each JVM (one descriptor per connection + about 300 for the JVM)";
            return r;
        }
        InetSocketAddress addr = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        int nThreads = Math.max(1, Math.min(c.ioThreads, c.connections));
        IoThread[] threads = new IoThread[nThreads];
        Recorder interval = new Recorder(TimeUnit.SECONDS.toNanos(120), 3);
        for (int i = 0; i < nThreads; i++) {
            threads[i] = new IoThread(i, c, interval);
        }
        // connect, blocking, from this thread; bounded by the connect timeout
        List<Conn> conns = new ArrayList<>(c.connections);
        long connectDeadline = System.nanoTime() + (long) (c.connectTimeoutS * 1e9);
        long lastPrint = System.nanoTime();
        for (int i = 0; i < c.connections; i++) {
            if (System.nanoTime() - connectDeadline > 0) {
                r.error("connect: timeout after " + c.connectTimeoutS + " s (" + i + " of " + c.connections + " connected)");
                break;
            }
            try {
                SocketChannel ch = SocketChannel.open();
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.socket().connect(addr, (int) (c.connectTimeoutS * 1000));
                ch.configureBlocking(false);
                conns.add(new Conn(i, ch, threads[i % nThreads]));
            } catch (IOException e) {
                r.error("connect: " + e.getClass().getSimpleName() + ": " + e.getMessage());
                if (r.errorCount() > 10) {
                    break;
                }
            }
            if (c.progress && System.nanoTime() - lastPrint > 1_000_000_000L) {
                lastPrint = System.nanoTime();
                out.printf(Locale.ROOT, "  connecting %d/%d%n", i + 1, c.connections);
            }
        }
        r.connected = conns.size();
        if (conns.size() < c.connections) {
            for (Conn k : conns) {
                k.closeQuietly();
            }
            r.limit = r.limit == null ? "could not open all connections: " + r.errors : r.limit;
            return r;
        }
        long t0 = System.nanoTime() + 100_000_000L;
        long warmEnd = t0 + (long) (c.warmupS * 1e9);
        long steadyEnd = warmEnd + (long) (c.steadyS * 1e9);
        long rampEnd = steadyEnd + (long) (c.rampdownS * 1e9);
        SplittableRandom rnd = new SplittableRandom(42);
        for (Conn k : conns) {
            double period = c.closedLoop() ? c.thinkMs * 1e6 : c.connections * 1e9 / c.rate;
            k.nextAt = t0 + (long) (rnd.nextDouble() * period);
            k.owner.add(k);
        }
        for (IoThread t : threads) {
            t.setWindow(t0, warmEnd, steadyEnd);
            t.start();
        }
        ThreadMXBean tmx = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        int cpus = Runtime.getRuntime().availableProcessors();
        long[] threadCpu0 = new long[nThreads];
        long clientCpu0 = 0;
        ProcStats server0 = ProcStats.NONE;
        boolean steadyStarted = false;
        long prevServerCpu = ProcStats.of(serverPid).cpuNanos;
        long prevTick = System.nanoTime();
        long maxRss = 0;
        int maxThreads = 0;
        // coordinator: progress every second, steady-state samples, bounded by rampEnd
        while (true) {
            long now = System.nanoTime();
            if (!steadyStarted && now - warmEnd >= 0) {
                steadyStarted = true;
                for (int i = 0; i < nThreads; i++) {
                    threadCpu0[i] = tmx.getThreadCpuTime(threads[i].getId());
                }
                clientCpu0 = os.getProcessCpuTime();
                server0 = ProcStats.of(serverPid);
            }
            if (now - steadyEnd >= 0) {
                break;
            }
            long sleepTo = Math.min(prevTick + 1_000_000_000L, steadyStarted ? steadyEnd : warmEnd);
            long sleep = sleepTo - now;
            if (sleep > 0) {
                Thread.sleep(Math.max(1, sleep / 1_000_000), (int) (sleep % 1_000_000));
            }
            now = System.nanoTime();
            if (now - prevTick >= 999_000_000L) {
                ProcStats s = ProcStats.of(serverPid);
                maxRss = Math.max(maxRss, s.rssKb);
                maxThreads = Math.max(maxThreads, s.threads);
                if (c.progress) {
                    Histogram h = interval.getIntervalHistogram();
                    double secs = (now - prevTick) / 1e9;
                    String phase = now - warmEnd < 0 ? "warm-up" : "steady";
                    out.printf(Locale.ROOT, "  [%5.1fs %-7s] %8.0f req/s  p50 %7.3f ms  p99 %8.3f ms  max %8.3f ms"
                                    + "  errors %d  client CPU %3.0f%%  server CPU %s  threads %d  RSS %d MB%n",
                            (now - t0) / 1e9, phase, h.getTotalCount() / secs, h.getValueAtPercentile(50) / 1e6,
                            h.getValueAtPercentile(99) / 1e6, h.getMaxValue() / 1e6, errorsSoFar(threads),
                            os.getProcessCpuLoad() * 100 * cpus,
                            s.cpuNanos < 0 ? "n/a" : String.format(Locale.ROOT, "%3.0f%%", (s.cpuNanos - prevServerCpu) / 1e7 / secs),
                            s.threads, s.rssKb / 1024);
                }
                prevServerCpu = ProcStats.of(serverPid).cpuNanos;
                prevTick = now;
            }
        }
        // end of steady state: samples
        long clientCpu1 = os.getProcessCpuTime();
        ProcStats server1 = ProcStats.of(serverPid);
        double steadyWall = c.steadyS;
        double maxThreadBusy = 0;
        for (int i = 0; i < nThreads; i++) {
            long t = tmx.getThreadCpuTime(threads[i].getId());
            maxThreadBusy = Math.max(maxThreadBusy, (t - threadCpu0[i]) / 1e9 / steadyWall);
        }
        // ramp-down: no new requests; wait for the outstanding ones, bounded
        while (System.nanoTime() - rampEnd < 0 && outstanding(threads) > 0) {
            Thread.sleep(5);
        }
        for (IoThread t : threads) {
            t.stopRunning();
        }
        for (IoThread t : threads) {
            t.join(10_000);
            if (t.isAlive()) {
                r.error("client: I/O thread " + t.getName() + " did not stop within 10 s");
            }
        }
        r.lostInRampdown = outstanding(threads);
        for (IoThread t : threads) {
            r.answeredInRun += t.answered.sum();
        }
        for (Conn k : conns) {
            k.closeQuietly();
        }
        // results
        Histogram all = new Histogram(TimeUnit.SECONDS.toNanos(120), 3);
        long[] perConn = new long[conns.size()];
        long thinkSum = 0;
        long thinkN = 0;
        long lateSum = 0;
        long lateN = 0;
        for (IoThread t : threads) {
            all.add(t.steady);
            thinkSum += t.thinkSum;
            thinkN += t.thinkN;
            lateSum += t.lateSum;
            lateN += t.lateN;
            for (Map.Entry<String, Long> e : t.errors.entrySet()) {
                r.errors.merge(e.getKey(), e.getValue(), Long::sum);
            }
        }
        int alive = 0;
        for (int i = 0; i < conns.size(); i++) {
            perConn[i] = conns.get(i).steadyCount;
            if (!conns.get(i).failed) {
                alive++;
            }
        }
        r.aliveAtEnd = alive;
        r.requests = all.getTotalCount();
        r.throughput = r.requests / steadyWall;
        r.meanMs = all.getMean() / 1e6;
        r.p50Ms = all.getValueAtPercentile(50) / 1e6;
        r.p90Ms = all.getValueAtPercentile(90) / 1e6;
        r.p99Ms = all.getValueAtPercentile(99) / 1e6;
        r.p999Ms = all.getValueAtPercentile(99.9) / 1e6;
        r.maxMs = all.getMaxValue() / 1e6;
        r.actualThinkMs = thinkN == 0 ? Double.NaN : thinkSum / 1e6 / thinkN;
        r.sendLatenessMs = lateN == 0 ? Double.NaN : lateSum / 1e6 / lateN;
        Arrays.sort(perConn);
        r.perConnMin = perConn.length == 0 ? 0 : perConn[0];
        r.perConnMedian = perConn.length == 0 ? 0 : perConn[perConn.length / 2];
        r.perConnMax = perConn.length == 0 ? 0 : perConn[perConn.length - 1];
        r.clientCores = (clientCpu1 - clientCpu0) / 1e9 / steadyWall;
        r.clientCoreLimit = Math.min(nThreads, cpus);
        r.clientMaxThreadBusy = maxThreadBusy;
        r.cpus = cpus;
        if (server1.cpuNanos >= 0 && server0.cpuNanos >= 0) {
            r.serverCores = (server1.cpuNanos - server0.cpuNanos) / 1e9 / steadyWall;
            r.serverCpuUsPerRequest = r.requests == 0 ? Double.NaN : (server1.cpuNanos - server0.cpuNanos) / 1e3 / r.requests;
            r.serverThreads = Math.max(maxThreads, server1.threads);
            r.serverRssMb = Math.max(maxRss, server1.rssKb) / 1024.0;
        }
        r.evaluate(c);
        return r;
    }

    private static long errorsSoFar(IoThread[] threads) {
        long n = 0;
        for (IoThread t : threads) {
            n += t.errorCount.sum();
        }
        return n;
    }

    private static long outstanding(IoThread[] threads) {
        long n = 0;
        for (IoThread t : threads) {
            n += t.outstanding.sum();
        }
        return n;
    }

    // ------------------------------------------------------------------------------------ connection

    /** One connection; touched only by its I/O thread once registered. */
    private static final class Conn {
        final int id;
        final SocketChannel ch;
        final IoThread owner;
        SelectionKey key;
        ByteBuffer pendingOut;
        byte[] line = new byte[128];
        int lineLen;
        LoadProtocol.Parser parser;
        /** Body bytes the parser asked for, and how many have arrived. */
        byte[] body = new byte[64];
        int bodyNeed;
        int bodyLen;
        long seqSent;
        long seqRecv;
        /** Send (closed loop) or intended (open loop) times of the outstanding requests, oldest first. */
        long[] times;
        int head;
        int count;
        long nextAt;
        long lastRecv = -1;
        boolean inTimer;
        boolean failed;
        long steadyCount;

        Conn(int id, SocketChannel ch, IoThread owner) {
            this.id = id;
            this.ch = ch;
            this.owner = owner;
        }

        void closeQuietly() {
            try {
                ch.close();
            } catch (IOException e) {
                // ignore
            }
        }
    }

    // ------------------------------------------------------------------------------------ I/O thread

    private static final class IoThread extends Thread {
        final Config c;
        final Selector selector;
        final Recorder interval;
        final Histogram steady = new Histogram(TimeUnit.SECONDS.toNanos(120), 3);
        final ConcurrentLinkedQueue<Conn> incoming = new ConcurrentLinkedQueue<>();
        final PriorityQueue<Conn> timers = new PriorityQueue<>((a, b) -> Long.compare(a.nextAt, b.nextAt));
        final List<Conn> mine = new ArrayList<>();
        final Map<String, Long> errors = new TreeMap<>();
        final LongAdder errorCount = new LongAdder();
        final LongAdder outstanding = new LongAdder();
        final LongAdder answered = new LongAdder();
        final ByteBuffer readBuf = ByteBuffer.allocateDirect(64 * 1024);
        final byte[] readBytes = new byte[64 * 1024];
        final byte[] scratch;
        final long thinkNs;
        final long intervalNs;
        final long timeoutNs;
        volatile boolean running = true;
        long t0;
        long warmEnd;
        long steadyEnd;
        long thinkSum;
        long thinkN;
        long lateSum;
        long lateN;

        IoThread(int i, Config c, Recorder interval) throws IOException {
            super("load-io-" + i);
            setDaemon(true);
            this.c = c;
            this.interval = interval;
            this.selector = Selector.open();
            this.scratch = new byte[c.protocol.maxRequestBytes(c.payload) * Math.max(1, c.pipeline)];
            this.thinkNs = (long) (c.thinkMs * 1e6);
            this.intervalNs = c.closedLoop() ? 0 : (long) (c.connections * 1e9 / c.rate);
            this.timeoutNs = (long) (c.timeoutS * 1e9);
        }

        void add(Conn k) {
            k.times = new long[c.closedLoop() ? c.pipeline : c.maxOutstanding];
            k.parser = c.protocol.parser(c.payload);
            incoming.add(k);
        }

        void setWindow(long t0, long warmEnd, long steadyEnd) {
            this.t0 = t0;
            this.warmEnd = warmEnd;
            this.steadyEnd = steadyEnd;
        }

        void stopRunning() {
            running = false;
            selector.wakeup();
        }

        @Override
        public void run() {
            try {
                loop();
            } catch (IOException | RuntimeException e) {
                error("client: " + e);
            } finally {
                try {
                    selector.close();
                } catch (IOException e) {
                    // ignore
                }
            }
        }

        private void loop() throws IOException {
            Conn k;
            while ((k = incoming.poll()) != null) {
                k.key = k.ch.register(selector, SelectionKey.OP_READ, k);
                mine.add(k);
                k.inTimer = true;
                timers.add(k);
            }
            long nextTimeoutScan = System.nanoTime() + 1_000_000_000L;
            while (running) {
                long now = System.nanoTime();
                while (!timers.isEmpty() && timers.peek().nextAt - now <= 0) {
                    Conn t = timers.poll();
                    t.inTimer = false;
                    onTimer(t, now);
                }
                if (now - nextTimeoutScan >= 0) {
                    nextTimeoutScan = now + 1_000_000_000L;
                    scanTimeouts(now);
                }
                long wait = timers.isEmpty() ? 100_000_000L : timers.peek().nextAt - System.nanoTime();
                int n;
                if (wait < 50_000L) {
                    n = selector.selectNow(); // a timer is due within 50 us: spin
                } else {
                    // epoll waits in whole ms: wake at most 1 ms late rather than spin (a spinning client
                    // with thousands of spread-out timers burns a core the server needs)
                    n = selector.select(Math.max(1, Math.min(100, (wait + 999_999L) / 1_000_000L)));
                }
                if (n == 0) {
                    continue;
                }
                Iterator<SelectionKey> it = selector.selectedKeys().iterator();
                while (it.hasNext()) {
                    SelectionKey key = it.next();
                    it.remove();
                    Conn cn = (Conn) key.attachment();
                    if (!key.isValid() || cn.failed) {
                        continue;
                    }
                    try {
                        if (key.isWritable()) {
                            flush(cn);
                        }
                        if (key.isValid() && key.isReadable()) {
                            read(cn);
                        }
                    } catch (IOException e) {
                        fail(cn, "io: " + e.getClass().getSimpleName() + ": " + e.getMessage());
                    }
                }
            }
        }

        private void scanTimeouts(long now) {
            for (Conn k : mine) {
                if (!k.failed && k.count > 0 && now - k.times[k.head] > timeoutNs) {
                    fail(k, "timeout: no echo within " + c.timeoutS + " s");
                }
            }
        }

        private void onTimer(Conn k, long now) {
            if (k.failed) {
                return;
            }
            try {
                if (c.closedLoop()) {
                    if (k.count == 0 && k.nextAt - steadyEnd < 0) {
                        send(k, c.pipeline, now, now);
                    }
                } else {
                    sendDue(k, now, true);
                }
            } catch (IOException e) {
                fail(k, "io: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }

        /** Open loop: sends every request whose intended time has come, up to the outstanding cap. */
        private void sendDue(Conn k, long now, boolean fromTimer) throws IOException {
            if (!fromTimer && k.inTimer) {
                return; // its timer is queued; nextAt must not change while it is in the heap
            }
            while (k.nextAt - now <= 0 && k.nextAt - steadyEnd < 0 && k.count < k.times.length) {
                long intended = k.nextAt;
                if (fromTimer && intended - warmEnd >= 0) {
                    lateSum += now - intended;
                    lateN++;
                }
                send(k, 1, intended, now);
                k.nextAt += intervalNs;
            }
            if (k.count < k.times.length && k.nextAt - steadyEnd < 0 && !k.inTimer) {
                k.inTimer = true;
                timers.add(k);
            }
        }

        /** Sends {@code n} requests in one write, all stamped {@code stamp}. */
        private void send(Conn k, int n, long stamp, long now) throws IOException {
            if (c.closedLoop() && k.lastRecv >= 0 && k.lastRecv - warmEnd >= 0 && k.lastRecv - steadyEnd < 0) {
                thinkSum += now - k.lastRecv;
                thinkN++;
            }
            int len = 0;
            for (int i = 0; i < n; i++) {
                len = c.protocol.request(scratch, len, k.id, ++k.seqSent, c.payload);
                int idx = (k.head + k.count) % k.times.length;
                k.times[idx] = stamp;
                k.count++;
                outstanding.increment();
            }
            if (k.pendingOut != null) {
                ByteBuffer more = ByteBuffer.allocate(k.pendingOut.remaining() + len);
                more.put(k.pendingOut).put(scratch, 0, len).flip();
                k.pendingOut = more;
                return;
            }
            ByteBuffer b = ByteBuffer.wrap(scratch, 0, len);
            k.ch.write(b);
            if (b.hasRemaining()) {
                k.pendingOut = ByteBuffer.allocate(b.remaining()).put(b);
                k.pendingOut.flip();
                k.key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
            }
        }

        private void flush(Conn k) throws IOException {
            if (k.pendingOut != null) {
                k.ch.write(k.pendingOut);
                if (!k.pendingOut.hasRemaining()) {
                    k.pendingOut = null;
                    k.key.interestOps(SelectionKey.OP_READ);
                }
            }
        }

        private void read(Conn k) throws IOException {
            for (int rounds = 0; rounds < 16; rounds++) {
                readBuf.clear();
                int n = k.ch.read(readBuf);
                if (n < 0) {
                    fail(k, "eof: server closed the connection");
                    return;
                }
                if (n == 0) {
                    return;
                }
                long now = System.nanoTime();
                readBuf.flip();
                readBuf.get(readBytes, 0, n);
                for (int i = 0; i < n; i++) {
                    if (k.bodyNeed > 0) {
                        int take = Math.min(k.bodyNeed - k.bodyLen, n - i);
                        System.arraycopy(readBytes, i, k.body, k.bodyLen, take);
                        k.bodyLen += take;
                        i += take - 1;
                        if (k.bodyLen == k.bodyNeed) {
                            k.bodyNeed = 0;
                            onPart(k, k.parser.body(k.body, k.bodyLen, k.id, k.seqRecv + 1), now);
                            if (k.failed) {
                                return;
                            }
                        }
                        continue;
                    }
                    byte b = readBytes[i];
                    if (b == '\n') {
                        int len = k.lineLen > 0 && k.line[k.lineLen - 1] == '\r' && c.protocol != LoadProtocol.ECHO
                                ? k.lineLen - 1 : k.lineLen;
                        if (k.count == 0 && !c.protocol.greeting(k.line, len)) {
                            fail(k, "mismatch: a response nobody asked for");
                            return;
                        }
                        k.lineLen = 0;
                        onPart(k, k.parser.line(k.line, len, k.id, k.seqRecv + 1), now);
                        if (k.failed) {
                            return;
                        }
                    } else {
                        if (k.lineLen == k.line.length) {
                            if (k.line.length >= 64 * 1024) {
                                fail(k, "mismatch: response line longer than 64 KiB");
                                return;
                            }
                            k.line = Arrays.copyOf(k.line, k.line.length * 2);
                        }
                        k.line[k.lineLen++] = b;
                    }
                }
                if (n < readBuf.capacity()) {
                    return;
                }
            }
        }

        /** What the parser said of a line or body: the response is complete, goes on, or is wrong. */
        private void onPart(Conn k, int verdict, long now) throws IOException {
            if (verdict == LoadProtocol.MISMATCH) {
                fail(k, "mismatch: " + (c.protocol == LoadProtocol.ECHO ? "echo differs from the request"
                        : "not the " + c.protocol.id() + " response expected"));
            } else if (verdict > 0) {
                if (verdict > 1 << 20) {
                    fail(k, "mismatch: response body of " + verdict + " bytes (expected: <= 1 MiB)");
                    return;
                }
                if (k.body.length < verdict) {
                    k.body = new byte[verdict];
                }
                k.bodyNeed = verdict;
                k.bodyLen = 0;
            } else if (verdict == LoadProtocol.COMPLETE) {
                onResponse(k, now);
            }
        }

        private void onResponse(Conn k, long now) throws IOException {
            k.seqRecv++;
            long stamp = k.times[k.head];
            k.head = (k.head + 1) % k.times.length;
            k.count--;
            outstanding.decrement();
            answered.increment();
            long lat = Math.max(0, now - stamp);
            interval.recordValue(Math.min(lat, TimeUnit.SECONDS.toNanos(120)));
            if (stamp - warmEnd >= 0 && stamp - steadyEnd < 0) {
                steady.recordValue(Math.min(lat, TimeUnit.SECONDS.toNanos(120)));
                k.steadyCount++;
            }
            k.lastRecv = now;
            if (c.closedLoop()) {
                if (k.count == 0 && now - steadyEnd < 0) {
                    if (thinkNs == 0) {
                        send(k, c.pipeline, now, now);
                    } else {
                        k.nextAt = now + thinkNs;
                        k.inTimer = true;
                        timers.add(k);
                    }
                }
            } else {
                sendDue(k, now, false);
            }
        }

        private void fail(Conn k, String kind) {
            if (k.failed) {
                return;
            }
            k.failed = true;
            outstanding.add(-k.count);
            k.count = 0;
            error(kind);
            k.closeQuietly();
        }

        private void error(String kind) {
            errors.merge(kind, 1L, Long::sum);
            errorCount.increment();
        }
    }

    // ------------------------------------------------------------------------------------ main

    /**
     * Client entry point. Either {@code --mode=M} (spawns the server JVM in mode M, then measures)
     * or {@code --port=P [--server-pid=PID]} (an already running {@link LoadServer}).
     *
     * <pre>
     * java -cp benchmarks.jar dev.flow.bench.load.LoadClient --mode=mina --connections=1000
     *      [--think-ms=0 | --rate=20000] [--warmup-s=3] [--steady-s=10] [--rampdown-s=2] [--io-threads=2]
     *      [--payload=32] [--workers=2] [--server-java=PATH] [--server-jvm-args="-Xmx1g ..."]
     *      [--protocol=echo|http|resp-ping|resp-setget|smtp] [--pipeline=1] [--handlers=samples|samples-strict|plain|plain-lenient]
     * </pre>
     *
     * {@code --handlers}: whose session code a spawned {@code sync}, {@code virtual} or continuation server
     * runs for HTTP and RESP: {@code samples} (default; the samples' {@code HttpSession} and {@code
     * RespSession}, which batch pipelined replies, loaded lenient in the continuation modes; also SMTP's),
     * {@code samples-strict} (the same loaded strict, so that {@code Dispatch.ADAPTIVE} may resume them on
     * their I/O thread), {@code plain} ({@code PlainHttp} and {@code PlainResp}, loaded strict,
     * one flush per response: issue #19's untuned baseline; no SMTP handler) or {@code plain-lenient} (the same
     * loaded lenient, as a loader built with the defaults loads them). Echo is always {@code
     * LineEcho}; {@code netty} and {@code mina} serve their own handlers and ignore it.
     *
     * Exit code 0 = valid run, 1 = a validity check failed (printed), 2 = bad arguments or setup.
     */
    public static void main(String[] args) throws Exception {
        Args a = new Args(args);
        Config c = config(a);
        String modeName = a.get("mode", null);
        int port = a.getInt("port", 0);
        long pid = a.getInt("server-pid", -1);
        int workers = a.getInt("workers", 2);
        String serverJava = a.get("server-java", null);
        String serverJvm = a.get("server-jvm-args", ServerProcess.DEFAULT_JVM_ARGS);
        a.checkAllUsed();
        if (modeName == null && port == 0) {
            System.err.println("expected --mode=<mode> (spawn the server) or --port=<port> [--server-pid=<pid>]");
            System.exit(2);
        }
        LoadResult r;
        if (modeName != null) {
            Mode mode = Mode.parse(modeName);
            try (ServerProcess sp = ServerProcess.start(mode, c.protocol.server(), c.handlers, workers, serverJava, serverJvm,
                    System.out)) {
                if (sp == null) {
                    System.exit(0);
                    return;
                }
                System.out.println("server: mode " + mode + ", pid " + sp.pid() + ", port " + sp.port() + ", handlers "
                        + c.handlers + "; client: " + c.describe());
                r = run(c, sp.port(), sp.pid(), System.out);
                r.mode = mode.id();
            }
        } else {
            r = run(c, port, pid, System.out);
            r.mode = "port " + port;
        }
        System.out.println(r.report());
        System.exit(r.valid() ? 0 : 1);
    }

    static Config config(Args a) {
        Config c = new Config();
        c.connections = a.getInt("connections", c.connections);
        c.thinkMs = a.getDouble("think-ms", c.thinkMs);
        c.rate = a.getDouble("rate", c.rate);
        c.warmupS = a.getDouble("warmup-s", c.warmupS);
        c.steadyS = a.getDouble("steady-s", c.steadyS);
        c.rampdownS = a.getDouble("rampdown-s", c.rampdownS);
        c.ioThreads = a.getInt("io-threads", c.ioThreads);
        c.payload = a.getInt("payload", c.payload);
        c.timeoutS = a.getDouble("timeout-s", c.timeoutS);
        c.maxOutstanding = a.getInt("max-outstanding", c.maxOutstanding);
        c.littleTolerance = a.getDouble("little-tolerance", c.littleTolerance);
        c.fairnessMin = a.getDouble("fairness-min", c.fairnessMin);
        c.progress = !a.getBool("quiet");
        c.protocol = LoadProtocol.parse(a.get("protocol", c.protocol.id()));
        c.pipeline = a.getInt("pipeline", c.pipeline);
        c.handlers = Handlers.parse(a.get("handlers", c.handlers.id()));
        if (c.pipeline < 1 || c.pipeline > 1024) {
            throw new IllegalArgumentException("pipeline: " + c.pipeline + " (expected: 1..1024)");
        }
        if (c.connections < 1 || c.connections > 100_000) {
            throw new IllegalArgumentException("connections: " + c.connections + " (expected: 1..100000)");
        }
        if (c.steadyS <= 0 || c.steadyS > 3600 || c.warmupS < 0 || c.rampdownS < 0) {
            throw new IllegalArgumentException("phases: warm-up " + c.warmupS + " s, steady " + c.steadyS
                    + " s (expected: 0 < steady <= 3600, warm-up and ramp-down >= 0)");
        }
        if (c.payload < 24 || c.payload > 4000) {
            throw new IllegalArgumentException("payload: " + c.payload + " (expected: 24..4000 bytes)");
        }
        return c;
    }
}
