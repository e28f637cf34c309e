package dev.flow.bench.load;

import dev.flow.FlowScheduler;
import dev.flow.TransportConfig;
import dev.flow.bench.VirtualThreads;
import dev.flow.bench.load.handlers.LineEcho;
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
import java.util.Locale;
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
 * The server JVM of the load driver: a line-echo server on 127.0.0.1 in one {@link Mode}.
 *
 * <p>Prints {@code LISTENING <port> pid=<pid> mode=<mode>} once bound, then serves until its standard
 * input reaches end of stream or a line {@code quit} (so it dies with the client that spawned it),
 * or until {@code --max-seconds} have passed.
 *
 * <pre>
 * java -cp benchmarks.jar dev.flow.bench.load.LoadServer --mode=continuation-immediately [--workers=2]
 *      [--io-processors=N] [--port=0] [--max-seconds=900]
 * </pre>
 */
public final class LoadServer implements AutoCloseable {

    static final String HANDLERS = "dev.flow.bench.load.handlers";
    static final TransportConfig CONFIG = TransportConfig.builder().maxLineLength(4096).build();

    private final Mode mode;
    private final int port;
    private AutoCloseable closer;
    private final AtomicLong failures = new AtomicLong();

    private LoadServer(Mode mode, int workers, int ioProcessors, int port) throws IOException {
        this.mode = mode;
        InetSocketAddress bind = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        switch (mode) {
            case SYNC:
            case VIRTUAL:
                this.port = startSockets(bind, mode == Mode.VIRTUAL ? virtualFactory() : platformFactory());
                break;
            case MINA:
                this.port = startMina(bind, ioProcessors);
                break;
            default:
                this.port = startFlow(bind, workers, ioProcessors);
        }
    }


    /** Starts a server in {@code mode} on 127.0.0.1 and {@code port} (0 = a free port). */
    public static LoadServer start(Mode mode, int workers, int ioProcessors, int port) throws IOException {
        String why = mode.unavailableReason();
        if (why != null) {
            throw new UnsupportedOperationException(why);
        }
        return new LoadServer(mode, workers, ioProcessors, port);
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
        try (SocketTransport t = new SocketTransport(s, CONFIG)) {
            new LineEcho(t).call();
        } catch (SocketException e) {
            // connection reset or closed by the client: the end of a run
        } catch (IOException e) {
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
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include(HANDLERS).strict(true).build();
        FlowScheduler scheduler = FlowScheduler.builder().workers(workers).policy(mode.policy()).name("echo").build();
        FlowServer.Builder b = FlowServer.builder()
                .scheduler(scheduler)
                .config(CONFIG)
                .backlog(4096)
                .handler(loader, HANDLERS + ".LineEcho");
        if (ioProcessors > 0) {
            b.ioProcessors(ioProcessors);
        }
        FlowServer server = b.start(bind);
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

    /** Entry point of the server JVM. */
    public static void main(String[] args) throws Exception {
        Args a = new Args(args);
        Mode mode = Mode.parse(a.get("mode", "continuation-immediately"));
        int workers = a.getInt("workers", 2);
        int io = a.getInt("io-processors", 0);
        int port = a.getInt("port", 0);
        long maxSeconds = a.getInt("max-seconds", 900);
        a.checkAllUsed();
        String why = mode.unavailableReason();
        if (why != null) {
            System.out.println(why);
            System.exit(3);
        }
        try (LoadServer s = start(mode, workers, io, port)) {
            System.out.printf(Locale.ROOT, "LISTENING %d pid=%d mode=%s workers=%d jdk=%s%n", s.port(),
                    ProcessHandle.current().pid(), mode, workers, Runtime.version());
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
            System.out.println("server: stopping, handler failures=" + s.failures());
        }
        System.exit(0);
    }
}
