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
 * measured by a timer (no thread ever sleeps); the lines of one session are echoed one delay apart.
 * Runs on MINA's I/O threads plus one timer thread.
 */
public final class EchoServer implements AutoCloseable {

    private static final AtomicInteger VM_PORTS = new AtomicInteger(7000);
    private static final String NEXT_SEND = EchoServer.class.getName() + ".nextSend";

    private final IoAcceptor acceptor;
    private final ScheduledExecutorService timer;
    private final SocketAddress address;
    private final long delayNanos;

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
        this.delayNanos = delay.toNanos();
        acceptor.setHandler(new IoHandlerAdapter() {
            @Override
            public void messageReceived(IoSession session, Object message) {
                if (timer == null) {
                    session.write(message);
                    return;
                }
                // Lines of one session are echoed one delay apart, in order, like a peer that spends the
                // delay on each: a per-session queue drained by timer tasks.
                Delayed q = (Delayed) session.getAttribute(NEXT_SEND);
                if (q == null) {
                    q = new Delayed(session);
                    session.setAttribute(NEXT_SEND, q);
                }
                q.add(message);
            }

            @Override
            public void exceptionCaught(IoSession session, Throwable cause) {
                session.closeNow();
            }
        });
        acceptor.bind(bind);
        this.address = acceptor.getLocalAddress();
    }

    /** The echo queue of one session; all fields guarded by {@code this}. */
    private final class Delayed {
        private final IoSession session;
        private final java.util.ArrayDeque<Object> lines = new java.util.ArrayDeque<>();
        private final java.util.ArrayDeque<Long> due = new java.util.ArrayDeque<>();
        private long last;
        private boolean scheduled;

        Delayed(IoSession session) {
            this.session = session;
        }

        synchronized void add(Object line) {
            long now = System.nanoTime();
            last = Math.max(now, last) + delayNanos;
            lines.add(line);
            due.add(last);
            if (!scheduled) {
                scheduled = true;
                timer.schedule(this::drain, last - now, TimeUnit.NANOSECONDS);
            }
        }

        private void drain() {
            java.util.List<Object> ready = new java.util.ArrayList<>();
            synchronized (this) {
                long now = System.nanoTime();
                while (!due.isEmpty() && due.peek() - now <= 0) {
                    due.poll();
                    ready.add(lines.poll());
                }
                if (due.isEmpty()) {
                    scheduled = false;
                } else {
                    timer.schedule(this::drain, due.peek() - now, TimeUnit.NANOSECONDS);
                }
            }
            for (Object line : ready) {
                session.write(line);
            }
        }
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
        a.getSessionConfig().setTcpNoDelay(true);
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
