package dev.flow.samples.tester;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.mina.core.service.IoAcceptor;
import org.apache.mina.core.service.IoHandlerAdapter;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.filter.codec.ProtocolCodecFilter;
import org.apache.mina.filter.codec.textline.LineDelimiter;
import org.apache.mina.filter.codec.textline.TextLineCodecFactory;
import org.apache.mina.transport.socket.nio.NioSocketAcceptor;
import org.apache.mina.transport.vmpipe.VmPipeAcceptor;
import org.apache.mina.transport.vmpipe.VmPipeAddress;

/**
 * A line echo server written directly against MINA: each line comes back, optionally after a delay
 * measured by a timer (no thread ever sleeps). Runs on MINA's I/O threads plus one timer thread.
 */
public final class EchoServer implements AutoCloseable {

    private static final AtomicInteger VM_PORTS = new AtomicInteger(7000);

    private final IoAcceptor acceptor;
    private final ScheduledExecutorService timer;
    private final SocketAddress address;

    private EchoServer(IoAcceptor acceptor, SocketAddress bind, Duration delay) throws IOException {
        this.acceptor = acceptor;
        this.timer = delay.isZero() ? null : Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "echo-delay-timer");
            t.setDaemon(true);
            return t;
        });
        TextLineCodecFactory codec = new TextLineCodecFactory(StandardCharsets.UTF_8, LineDelimiter.UNIX, LineDelimiter.AUTO);
        codec.setDecoderMaxLineLength(64 * 1024);
        acceptor.getFilterChain().addLast("lines", new ProtocolCodecFilter(codec));
        long delayNanos = delay.toNanos();
        acceptor.setHandler(new IoHandlerAdapter() {
            @Override
            public void messageReceived(IoSession session, Object message) {
                if (timer == null) {
                    session.write(message);
                } else {
                    timer.schedule(() -> session.write(message), delayNanos, TimeUnit.NANOSECONDS);
                }
            }

            @Override
            public void exceptionCaught(IoSession session, Throwable cause) {
                session.closeNow();
            }
        });
        acceptor.bind(bind);
        this.address = acceptor.getLocalAddress();
    }

    /** Starts an in-VM echo server on a fresh {@link VmPipeAddress}. */
    public static EchoServer inVm(Duration delay) throws IOException {
        return new EchoServer(new VmPipeAcceptor(), new VmPipeAddress(VM_PORTS.incrementAndGet()), delay);
    }

    /** Starts a TCP echo server on 127.0.0.1 and a free port. */
    public static EchoServer tcp(Duration delay) throws IOException {
        NioSocketAcceptor a = new NioSocketAcceptor();
        a.setReuseAddress(true);
        a.setBacklog(4096);
        return new EchoServer(a, new InetSocketAddress("127.0.0.1", 0), delay);
    }

    /** Where clients connect. */
    public SocketAddress address() {
        return address;
    }

    @Override
    public void close() {
        acceptor.unbind();
        for (IoSession s : acceptor.getManagedSessions().values()) {
            s.closeNow();
        }
        acceptor.dispose(true);
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
