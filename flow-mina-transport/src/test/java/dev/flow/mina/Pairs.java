package dev.flow.mina;

import dev.flow.FlowScheduler;
import dev.flow.TransportConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.apache.mina.core.future.ConnectFuture;
import org.apache.mina.transport.vmpipe.VmPipeAcceptor;
import org.apache.mina.transport.vmpipe.VmPipeConnector;
import org.apache.mina.transport.vmpipe.VmPipeAddress;

/**
 * Creates connected pairs (a {@link MinaTransport} made by a {@link FlowConnector} and a peer the
 * test drives) and releases everything they used. Not thread-safe; one per test.
 */
final class Pairs implements AutoCloseable {

    static final InetAddress LOOPBACK = loopback();

    private final Deque<AutoCloseable> resources = new ArrayDeque<>();

    private static InetAddress loopback() {
        try {
            return InetAddress.getByName("127.0.0.1");
        } catch (IOException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Connects plain sockets to {@code listener} (which never accepts; give it a backlog of 1) until one
     * times out: its accept queue is then full and the kernel drops further connection requests. The
     * sockets are added to {@code filling}, for the caller to close.
     */
    static void fillAcceptQueue(ServerSocket listener, List<Socket> filling) throws IOException {
        for (int i = 0; i < 3; i++) {
            Socket s = new Socket();
            filling.add(s);
            try {
                s.connect(listener.getLocalSocketAddress(), 200);
            } catch (java.net.SocketTimeoutException e) {
                return;
            }
        }
    }

    /** A transport connected over TCP (127.0.0.1, port 0) to a plain socket. */
    Tcp tcp(TransportConfig config, boolean oneByteAtATime) throws IOException {
        return tcp(config, oneByteAtATime, FlowConnector.builder());
    }

    /**
     * A transport connected over TCP to a plain socket by a connector whose I/O thread runs the flows
     * of {@code scheduler} it wakes ({@link Dispatch#IO_THREADS}).
     */
    Tcp tcpOnIoThreads(TransportConfig config, FlowScheduler scheduler) throws IOException {
        return tcp(config, false, FlowConnector.builder().dispatch(Dispatch.IO_THREADS, scheduler));
    }

    private Tcp tcp(TransportConfig config, boolean oneByteAtATime, FlowConnector.Builder b) throws IOException {
        ServerSocket server = new ServerSocket(0, 4, LOOPBACK);
        resources.push(server);
        server.setSoTimeout(5000);
        FlowConnector connector = b.config(config).ioProcessors(1).build();
        resources.push(connector);
        MinaTransport t = (MinaTransport) connector.connect(new InetSocketAddress(LOOPBACK, server.getLocalPort()));
        Socket s = server.accept();
        SocketPeer peer = new SocketPeer(s, t, oneByteAtATime);
        resources.push(peer::close);
        return new Tcp(t, peer, connector);
    }

    /** A transport connected over an in-VM pipe to a raw acceptor session. */
    Pipe pipe(TransportConfig config) throws Exception {
        VmPipeAcceptor acceptor = new VmPipeAcceptor();
        PipePeer.Handler handler = new PipePeer.Handler();
        acceptor.setHandler(handler);
        acceptor.bind(new VmPipeAddress(0));
        resources.push(() -> acceptor.dispose(true));
        resources.push(acceptor::unbind);
        FlowConnector connector = FlowConnector.builder().config(config).build();
        resources.push(connector);
        MinaTransport t = (MinaTransport) connector.connect(acceptor.getLocalAddress());
        PipePeer peer = handler.take().transport(t);
        resources.push(peer::close);
        return new Pipe(t, peer, connector);
    }

    /**
     * A transport connected over an in-VM pipe to a raw acceptor session, created by a MINA
     * connector with Flow's handler and the given input budget.
     */
    Pipe pipe(TransportConfig config, InputBudget budget) throws Exception {
        VmPipeAcceptor acceptor = new VmPipeAcceptor();
        PipePeer.Handler handler = new PipePeer.Handler();
        acceptor.setHandler(handler);
        acceptor.bind(new VmPipeAddress(0));
        resources.push(() -> acceptor.dispose(true));
        resources.push(acceptor::unbind);
        VmPipeConnector connector = new VmPipeConnector();
        connector.setHandler(new TransportIoHandler(config, null, budget));
        resources.push(() -> connector.dispose(true));
        ConnectFuture f = connector.connect(acceptor.getLocalAddress()).awaitUninterruptibly();
        MinaTransport t = MinaTransport.of(f.getSession());
        PipePeer peer = handler.take().transport(t);
        resources.push(peer::close);
        return new Pipe(t, peer, null);
    }

    @Override
    public void close() throws Exception {
        Exception first = null;
        while (!resources.isEmpty()) {
            try {
                resources.pop().close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    static final class Tcp {
        final MinaTransport transport;
        final SocketPeer peer;
        final FlowConnector connector;

        Tcp(MinaTransport transport, SocketPeer peer, FlowConnector connector) {
            this.transport = transport;
            this.peer = peer;
            this.connector = connector;
        }
    }

    static final class Pipe {
        final MinaTransport transport;
        final PipePeer peer;
        final FlowConnector connector;

        Pipe(MinaTransport transport, PipePeer peer, FlowConnector connector) {
            this.transport = transport;
            this.peer = peer;
            this.connector = connector;
        }
    }
}
