package dev.flow.bench.load;

import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.TransportConfig;
import dev.flow.bench.VirtualThreads;
import dev.flow.Transport;
import dev.flow.samples.http.HttpProtocol;
import dev.flow.samples.launcher.SampleProtocol;
import dev.flow.samples.redis.RedisProtocol;
import dev.flow.samples.smtp.SmtpProtocol;
import dev.flow.loader.ContinuationClassLoader;
import dev.flow.mina.FlowServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.mina.core.service.IoHandlerAdapter;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.filter.codec.ProtocolCodecFilter;
import org.apache.mina.filter.codec.textline.LineDelimiter;
import org.apache.mina.filter.codec.textline.TextLineCodecFactory;
import org.apache.mina.transport.socket.nio.NioSocketAcceptor;

/**
 * The server JVM of the load driver: a line-echo server, or the HTTP or RESP sample's session code (or,
 * with {@code --handlers=plain}, the plain handlers {@code PlainHttp} and {@code PlainResp}, see {@link
 * Handlers}), on 127.0.0.1 in one {@link Mode} (the same handler class in every mode; MINA mode is echo
 * only; Netty mode is a hand-written handler of echo, HTTP or RESP, {@link NettyServer}, with {@code
 * --workers} event loops; both ignore {@code --handlers}).
 *
 * <p>Prints {@code LISTENING <port> pid=<pid> mode=<mode> ... handler=<class>} once bound, then serves until its standard
 * input reaches end of stream or a line {@code quit} (so it dies with the client that spawned it),
 * or until {@code --max-seconds} have passed.
 *
 * <pre>
 * java -cp benchmarks.jar dev.flow.bench.load.LoadServer --mode=continuation-immediately|continuation-workers|continuation-io|virtual|netty|... [--protocol=echo|http|redis|smtp] [--workers=2]
 *      [--handlers=samples|samples-strict|plain|plain-lenient] [--io-processors=N] [--port=0] [--max-seconds=900]
 * </pre>
 * {@code --io-processors} defaults to the system property {@value #IO_PROCESSORS_PROPERTY}, else 0 (the
 * server's default: one per processor for {@code FlowServer}'s default dispatch and {@code IO_THREADS}, the
 * processors plus one, MINA's, for {@code WORKERS}, sync and {@code mina}), so a spawned server takes it from
 * its JVM options ({@code JVM_ARGS_<label>} in {@code protocol-rounds.sh}).
 */
public final class LoadServer implements AutoCloseable {

    static final String HANDLERS = "dev.flow.bench.load.handlers";
    /** The system property giving {@code --io-processors}' default. */
    static final String IO_PROCESSORS_PROPERTY = "flow.bench.ioProcessors";
    static final TransportConfig CONFIG = TransportConfig.builder().maxLineLength(4096).build();

    private final Mode mode;
    private final Served served;
    private final int port;
    private AutoCloseable closer;
    /** Flows started plus resumptions, in the continuation modes: each is one run of a flow on a worker. */
    private java.util.function.LongSupplier flowRuns;
    /** The flows' scheduler in the continuation modes, else {@code null}. */
    private FlowScheduler scheduler;
    private final AtomicLong failures = new AtomicLong();

    /**
     * The session handler a server runs, by protocol: the bench's line echo, a sample server's session
     * class with its shared arguments, or a plain handler of {@link #HANDLERS} with its own (the same class
     * in every mode).
     */
    record Served(String protocol, TransportConfig config, String handlerClass, List<String> loadedPackages,
            List<Object> shared, boolean strict) {

        /** {@code echo}, {@code http} (the HTTP sample), {@code redis} (the RESP sample) or {@code smtp} (the SMTP sample). */
        static Served of(String protocol) {
            return of(protocol, Handlers.SAMPLES);
        }

        /**
         * Like {@link #of(String)}; with {@link Handlers#PLAIN} ({@link Handlers#PLAIN_LENIENT}), {@code http} and
         * {@code redis} are served by {@code PlainHttp} and {@code PlainResp} (one shared {@code ConcurrentHashMap}
         * per server), strict (lenient).
         *
         * @throws IllegalArgumentException for {@code smtp} with the plain handlers: it has none
         */
        static Served of(String protocol, Handlers handlers) {
            boolean plain = handlers == Handlers.PLAIN || handlers == Handlers.PLAIN_LENIENT;
            if (plain && !protocol.equals("echo")) {
                boolean strictPlain = handlers == Handlers.PLAIN;
                switch (protocol) {
                    case "http":
                        return new Served(protocol, CONFIG, HANDLERS + ".PlainHttp", List.of(HANDLERS), List.of(),
                                strictPlain);
                    case "redis":
                        return new Served(protocol, CONFIG, HANDLERS + ".PlainResp", List.of(HANDLERS),
                                List.of(new ConcurrentHashMap<String, byte[]>()), strictPlain);
                    default:
                        throw new IllegalArgumentException("handlers plain: protocol " + protocol
                                + " has no plain handler (expected: echo, http or redis)");
                }
            }
            boolean strict = handlers == Handlers.SAMPLES_STRICT;
            switch (protocol) {
                case "echo":
                    return new Served(protocol, CONFIG, HANDLERS + ".LineEcho", List.of(HANDLERS), List.of(), true);
                case "http":
                    return ofSample(protocol, new HttpProtocol(), strict);
                case "redis":
                    return ofSample(protocol, new RedisProtocol(), strict);
                case "smtp":
                    return ofSample(protocol, new SmtpProtocol(), strict);
                default:
                    throw new IllegalArgumentException("protocol: " + protocol + " (expected: echo, http, redis or smtp)");
            }
        }

        private static Served ofSample(String protocol, SampleProtocol p, boolean strict) {
            SampleProtocol.Setup setup = p.setup(Map.of());
            return new Served(protocol, setup.config(), p.handlerClass(), p.loadedPackages(), setup.handlerArgs(), strict);
        }

        /** A new handler for {@code t}, loaded normally (the sync and virtual-thread modes). */
        Callable<?> newHandler(Transport t) throws ReflectiveOperationException {
            Object[] args = new Object[shared.size() + 1];
            args[0] = t;
            for (int i = 0; i < shared.size(); i++) {
                args[i + 1] = shared.get(i);
            }
            return (Callable<?>) Class.forName(handlerClass).getConstructors()[0].newInstance(args);
        }
    }

    private LoadServer(Mode mode, Served served, int workers, int ioProcessors, int port) throws IOException {
        this.mode = mode;
        this.served = served;
        InetSocketAddress bind = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        switch (mode) {
            case SYNC:
            case VIRTUAL:
                this.port = startSockets(bind, mode == Mode.VIRTUAL ? virtualFactory() : platformFactory());
                break;
            case MINA:
                if (!served.protocol().equals("echo")) {
                    throw new IllegalArgumentException("mode mina: protocol " + served.protocol() + " (expected: echo)");
                }
                this.port = startMina(bind, ioProcessors);
                break;
            case NETTY:
                NettyServer netty = NettyServer.start(bind, served.protocol(), workers, CONFIG.maxLineLength(), failures);
                closer = netty;
                this.port = netty.port();
                break;
            default:
                this.port = startFlow(bind, workers, ioProcessors);
        }
    }


    /** Starts a line-echo server in {@code mode} on 127.0.0.1 and {@code port} (0 = a free port). */
    public static LoadServer start(Mode mode, int workers, int ioProcessors, int port) throws IOException {
        return start(mode, "echo", workers, ioProcessors, port);
    }

    /** Starts a {@code protocol} server ({@code echo}, {@code http}, {@code redis}) in {@code mode} on 127.0.0.1. */
    public static LoadServer start(Mode mode, String protocol, int workers, int ioProcessors, int port) throws IOException {
        return start(mode, protocol, Handlers.SAMPLES, workers, ioProcessors, port);
    }

    /**
     * Like {@link #start(Mode, String, int, int, int)} with the session code {@code handlers} says ({@code
     * mina} and {@code netty} serve their own and ignore it).
     */
    static LoadServer start(Mode mode, String protocol, Handlers handlers, int workers, int ioProcessors, int port)
            throws IOException {
        String why = mode.unavailableReason();
        if (why != null) {
            throw new UnsupportedOperationException(why);
        }
        boolean own = mode == Mode.MINA || mode == Mode.NETTY;
        return new LoadServer(mode, Served.of(protocol, own ? Handlers.SAMPLES : handlers), workers, ioProcessors, port);
    }

    /** The class of the session handler this server runs, or, in {@code mina} and {@code netty} modes, that mode's own. */
    String handlerName() {
        return mode == Mode.MINA || mode == Mode.NETTY ? mode.id() + " (its own handler)" : served.handlerClass();
    }

    /** The bound port. */
    public int port() {
        return port;
    }

    /** Connections whose handler ended with an exception other than a closed connection. */
    public long failures() {
        return failures.get();
    }

    private static ThreadFactory platformFactory() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            // 256 KiB stacks: the echo handler is shallow; the default 1 MiB only costs address space.
            Thread t = new Thread(null, r, "echo-" + n.incrementAndGet(), 256 * 1024);
            t.setDaemon(true);
            return t;
        };
    }

    private static ThreadFactory virtualFactory() {
        return VirtualThreads::unstarted;
    }

    private int startSockets(InetSocketAddress bind, ThreadFactory threads) throws IOException {
        ServerSocket ss = new ServerSocket();
        ss.setReuseAddress(true);
        ss.bind(bind, 4096);
        Thread acceptor = new Thread(() -> {
            while (!ss.isClosed()) {
                Socket s;
                try {
                    s = ss.accept();
                } catch (IOException e) {
                    if (!ss.isClosed()) {
                        System.err.println("accept failed: " + e);
                    }
                    return;
                }
                Thread t = threads.newThread(() -> serve(s));
                t.start();
            }
        }, "echo-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
        closer = ss;
        return ss.getLocalPort();
    }

    private void serve(Socket s) {
        try (Transport t = Transport.ofSocket(s, served.config())) {
            served.newHandler(t).call();
        } catch (SocketException e) {
            // connection reset or closed by the client: the end of a run
        } catch (Exception e) {
            failures.incrementAndGet();
            System.err.println("connection failed: " + e);
        }
    }

    private int startMina(InetSocketAddress bind, int ioProcessors) throws IOException {
        NioSocketAcceptor a = ioProcessors > 0 ? new NioSocketAcceptor(ioProcessors) : new NioSocketAcceptor();
        a.setReuseAddress(true);
        a.setBacklog(4096);
        a.getSessionConfig().setTcpNoDelay(true);
        TextLineCodecFactory codec = new TextLineCodecFactory(StandardCharsets.UTF_8, LineDelimiter.UNIX, LineDelimiter.AUTO);
        codec.setDecoderMaxLineLength(CONFIG.maxLineLength());
        a.getFilterChain().addLast("lines", new ProtocolCodecFilter(codec));
        a.setHandler(new IoHandlerAdapter() {
            @Override
            public void messageReceived(IoSession session, Object message) {
                session.write(message);
            }

            @Override
            public void exceptionCaught(IoSession session, Throwable cause) {
                if (!(cause instanceof IOException)) {
                    failures.incrementAndGet();
                    System.err.println("session failed: " + cause);
                }
                session.closeNow();
            }
        });
        a.bind(bind);
        closer = () -> a.dispose(false);
        return ((InetSocketAddress) a.getLocalAddress()).getPort();
    }

    private int startFlow(InetSocketAddress bind, int workers, int ioProcessors) throws IOException {
        ContinuationClassLoader loader = ContinuationClassLoader.builder()
                .include(served.loadedPackages().toArray(new String[0])).strict(served.strict()).build();
        scheduler = FlowScheduler.builder().workers(workers).policy(mode.policy()).name(served.protocol()).build();
        FlowServer.Builder b = FlowServer.builder()
                .scheduler(scheduler)
                .dispatch(mode.dispatch())
                .config(served.config())
                .backlog(4096)
                .handler(loader, served.handlerClass(), served.shared().toArray());
        if (ioProcessors > 0) {
            b.ioProcessors(ioProcessors);
        }
        FlowServer server = b.start(bind);
        flowRuns = () -> {
            FlowStats st = scheduler.stats();
            return st.completed() + st.failed() + st.active() + st.resumed();
        };
        closer = () -> {
            server.close();
            scheduler.close();
        };
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    @Override
    public void close() throws Exception {
        if (closer != null) {
            closer.close();
        }
    }

    /** The scheduler's counts in the continuation modes, else {@code null}. */
    FlowStats flowStats() {
        return scheduler == null ? null : scheduler.stats();
    }

    /** {@code ", flow runs=N"} in the continuation modes, else empty. */
    String flowRuns() {
        return flowRuns == null ? "" : ", flow runs=" + flowRuns.getAsLong();
    }

    /** Entry point of the server JVM. */
    public static void main(String[] args) throws Exception {
        Args a = new Args(args);
        Mode mode = Mode.parse(a.get("mode", "continuation-immediately"));
        String protocol = a.get("protocol", "echo");
        Handlers handlers = Handlers.parse(a.get("handlers", Handlers.SAMPLES.id()));
        int workers = a.getInt("workers", 2);
        int io = a.getInt("io-processors", Integer.getInteger(IO_PROCESSORS_PROPERTY, 0));
        int port = a.getInt("port", 0);
        long maxSeconds = a.getInt("max-seconds", 900);
        a.checkAllUsed();
        String why = mode.unavailableReason();
        if (why != null) {
            System.out.println(why);
            System.exit(3);
        }
        try (LoadServer s = start(mode, protocol, handlers, workers, io, port)) {
            System.out.printf(Locale.ROOT, "LISTENING %d pid=%d mode=%s protocol=%s workers=%d jdk=%s handler=%s%n", s.port(),
                    ProcessHandle.current().pid(), mode, protocol, workers, Runtime.version(), s.handlerName());
            System.out.flush();
            Thread watchdog = new Thread(() -> {
                try {
                    Thread.sleep(maxSeconds * 1000);
                } catch (InterruptedException e) {
                    return;
                }
                System.err.println("server: --max-seconds=" + maxSeconds + " reached, exiting");
                System.exit(2);
            }, "watchdog");
            watchdog.setDaemon(true);
            watchdog.start();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null && !line.trim().equals("quit")) {
                // ignore anything else
            }
            System.out.println("server: stopping, handler failures=" + s.failures() + s.flowRuns());
        }
        System.exit(0);
    }
}
