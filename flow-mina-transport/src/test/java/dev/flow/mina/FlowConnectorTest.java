package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.Connector;
import dev.flow.Transport;
import dev.flow.TransportConfig;
import dev.flow.internal.Awaits;
import dev.flow.internal.Waits;
import dev.flow.spi.AsyncConnector;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.mina.core.future.ConnectFuture;
import org.apache.mina.core.future.DefaultConnectFuture;
import org.apache.mina.transport.socket.nio.NioSession;
import org.apache.mina.transport.vmpipe.VmPipeAcceptor;
import org.apache.mina.transport.vmpipe.VmPipeAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 20, unit = TimeUnit.SECONDS)
class FlowConnectorTest {

    private final FlowConnector connector = FlowConnector.builder().ioProcessors(1).build();

    @AfterEach
    void closeConnector() {
        connector.close();
        assertEquals(0, connector.openSessions());
    }

    @Test
    void connectReturnsATransportConnectedToTheAddress() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, Pairs.LOOPBACK)) {
            server.setSoTimeout(5000);
            InetSocketAddress address = new InetSocketAddress(Pairs.LOOPBACK, server.getLocalPort());
            Transport t = connector.connect(address);
            try (Socket peer = server.accept()) {
                assertEquals(address, t.remoteAddress());
                assertEquals(1, connector.openSessions());
                t.writeLine("hi");
                byte[] got = new byte[3];
                peer.setSoTimeout(5000);
                new DataInputStream(peer.getInputStream()).readFully(got);
                assertArrayEquals("hi\n".getBytes(StandardCharsets.UTF_8), got);
            }
            t.close();
            Conditions.await("the session to close", () -> connector.openSessions() == 0);
        }
    }

    /** A TCP connection gets the connector's socket options (TCP_NODELAY) and its addresses. */
    @Test
    void aLoopbackConnectionHasTheConnectorsSocketOptions() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, Pairs.LOOPBACK)) {
            server.setSoTimeout(5000);
            InetSocketAddress address = new InetSocketAddress(Pairs.LOOPBACK, server.getLocalPort());
            MinaTransport t = (MinaTransport) connector.connect(address);
            try (Socket peer = server.accept()) {
                SocketChannel channel = (SocketChannel) ((NioSession) t.session()).getChannel();
                assertEquals(true, channel.getOption(StandardSocketOptions.TCP_NODELAY));
                assertEquals(address, t.session().getRemoteAddress());
                assertEquals(peer.getRemoteSocketAddress(), t.session().getLocalAddress());
            }
            t.close();
        }
    }

    /**
     * A connect the kernel cannot finish at once (the listener's accept queue is full, the SYN is dropped)
     * is left to the connector's thread, which finishes it when the retransmitted SYN is accepted.
     */
    @Test
    void aConnectStillInProgressIsFinishedByTheConnectorsThread() throws Exception {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        FlowConnector daemons = FlowConnector.builder().daemonThreads(true).ioProcessors(1).build();
        List<Socket> filling = new ArrayList<>();
        try (ServerSocket full = new ServerSocket(0, 1, Pairs.LOOPBACK)) {
            full.setSoTimeout(5000);
            InetSocketAddress address = new InetSocketAddress(Pairs.LOOPBACK, full.getLocalPort());
            Pairs.fillAcceptQueue(full, filling);
            ConnectFuture f = daemons.connectAsync(address);
            List<String> connecting = Thread.getAllStackTraces().keySet().stream().filter(t -> !before.contains(t))
                    .map(Thread::getName).filter(n -> n.matches("flow-connector-daemon-\\d+|\\w+SocketConnector-\\d+"))
                    .collect(Collectors.toList());
            assertEquals(1, connecting.size(), "connector threads: " + connecting);
            for (Socket s : filling) {
                if (s.isConnected()) {
                    full.accept().close(); // makes room for the retransmitted SYN
                }
            }
            assertTrue(f.await(10, TimeUnit.SECONDS), "connected");
            Transport t = daemons.transportOf(f);
            try (Socket peer = full.accept()) {
                t.writeLine("hi");
                t.flush();
                peer.setSoTimeout(5000);
                assertEquals('h', peer.getInputStream().read());
            }
            t.close();
        } finally {
            for (Socket s : filling) {
                s.close();
            }
            daemons.close();
        }
        assertEquals(0, daemons.openSessions());
    }

    /** MINA's connect timeout still bounds a connect left to the connector's thread. */
    @Test
    void aConnectStillInProgressFailsAfterTheConnectTimeout() throws Exception {
        FlowConnector timing = FlowConnector.builder().ioProcessors(1).connectTimeout(Duration.ofMillis(300)).build();
        List<Socket> filling = new ArrayList<>();
        try (ServerSocket full = new ServerSocket(0, 1, Pairs.LOOPBACK)) {
            InetSocketAddress address = new InetSocketAddress(Pairs.LOOPBACK, full.getLocalPort());
            Pairs.fillAcceptQueue(full, filling);
            ConnectException e = assertThrows(ConnectException.class, () -> timing.connect(address));
            assertEquals("cannot connect to " + address + ": Connection timed out.", e.getMessage());
        } finally {
            for (Socket s : filling) {
                s.close();
            }
            timing.close();
        }
        assertEquals(0, timing.openSessions());
    }

    @Test
    void connectThrowsConnectExceptionNamingTheAddressWhenNothingListens() throws Exception {
        InetSocketAddress closed;
        try (ServerSocket s = new ServerSocket(0, 1, Pairs.LOOPBACK)) {
            closed = new InetSocketAddress(Pairs.LOOPBACK, s.getLocalPort());
        }
        ConnectException tcp = assertThrows(ConnectException.class, () -> connector.connect(closed));
        assertTrue(tcp.getMessage().contains(closed.toString()), tcp.getMessage());

        VmPipeAddress unbound = new VmPipeAddress(1);
        ConnectException pipe = assertThrows(ConnectException.class, () -> connector.connect(unbound));
        assertTrue(pipe.getMessage().contains(unbound.toString()), pipe.getMessage());
    }

    @Test
    void connectAsyncThenAwaitThenTransportOfGivesTheTransport() throws Exception {
        VmPipeAcceptor acceptor = new VmPipeAcceptor();
        PipePeer.Handler handler = new PipePeer.Handler();
        acceptor.setHandler(handler);
        acceptor.bind(new VmPipeAddress(0));
        try {
            ConnectFuture f = connector.connectAsync(acceptor.getLocalAddress());
            f.awaitUninterruptibly(); // the suspension point in continuation mode
            assertTrue(Waits.isDone(f), "Flow sees MINA futures through the adapter");
            Transport t = connector.transportOf(f);
            assertTrue(t instanceof MinaTransport);
            PipePeer peer = handler.take();
            peer.write("from peer\n".getBytes(StandardCharsets.UTF_8));
            assertEquals("from peer", t.readLine());
            assertEquals(t, connector.transportOf(f), "the same transport every time");
        } finally {
            acceptor.unbind();
            acceptor.dispose(true);
        }
    }

    @Test
    void aConnectorToOneAddressConnectsInSyncModeAndThroughFlowsLoop() throws Exception {
        VmPipeAcceptor acceptor = new VmPipeAcceptor();
        PipePeer.Handler handler = new PipePeer.Handler();
        acceptor.setHandler(handler);
        acceptor.bind(new VmPipeAddress(0));
        try {
            Connector target = connector.connector(acceptor.getLocalAddress());
            assertTrue(target instanceof AsyncConnector, "connect() can suspend in continuation mode");
            try (Transport sync = target.connect(); Transport viaAwaits = Awaits.connect(target)) {
                PipePeer first = handler.take();
                PipePeer second = handler.take();
                first.write("one\n".getBytes(StandardCharsets.UTF_8));
                second.write("two\n".getBytes(StandardCharsets.UTF_8));
                assertEquals("one", sync.readLine());
                assertEquals("two", viaAwaits.readLine());
            }
            AsyncConnector async = (AsyncConnector) target;
            Object attempt = async.connectAsync();
            assertTrue(Waits.block(attempt, TimeUnit.SECONDS.toNanos(5)));
            async.transportOf(attempt).close();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> async.transportOf("x"));
            assertTrue(e.getMessage().startsWith("attempt: x (expected: "), e.getMessage());
        } finally {
            acceptor.unbind();
            acceptor.dispose(true);
        }
    }

    @Test
    void aConnectorToAnUnboundAddressFailsWithConnectException() {
        VmPipeAddress unbound = new VmPipeAddress(2);
        Connector target = connector.connector(unbound);
        ConnectException e = assertThrows(ConnectException.class, target::connect);
        assertTrue(e.getMessage().contains(unbound.toString()), e.getMessage());
        assertThrows(ConnectException.class, () -> Awaits.connect(target));
        assertThrows(IllegalArgumentException.class, () -> connector.connector(new java.net.SocketAddress() { }));
    }

    @Test
    void transportOfRejectsAFutureThatIsNotDone() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> connector.transportOf(new DefaultConnectFuture()));
        assertTrue(e.getMessage().contains("expected: a completed ConnectFuture"), e.getMessage());
    }

    @Test
    void closeClosesTheConnectionsOfTheConnector() throws Exception {
        VmPipeAcceptor acceptor = new VmPipeAcceptor();
        PipePeer.Handler handler = new PipePeer.Handler();
        acceptor.setHandler(handler);
        acceptor.bind(new VmPipeAddress(0));
        try {
            Transport a = connector.connect(acceptor.getLocalAddress());
            Transport b = connector.connect(acceptor.getLocalAddress());
            PipePeer pa = handler.take();
            PipePeer pb = handler.take();
            assertEquals(2, connector.openSessions());
            connector.close();
            assertEquals(0, connector.openSessions());
            assertNull(a.readLine());
            assertNull(b.readLine());
            pa.awaitEndOfStream();
            pb.awaitEndOfStream();
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> connector.connectAsync(acceptor.getLocalAddress()));
            assertEquals("connector is closed", e.getMessage());
        } finally {
            acceptor.unbind();
            acceptor.dispose(true);
        }
    }

    @Test
    void invalidSettingsAndAddressesAreRejected() {
        IllegalArgumentException type = assertThrows(IllegalArgumentException.class,
                () -> connector.connectAsync(new java.net.SocketAddress() { }));
        assertTrue(type.getMessage().contains("(expected: an InetSocketAddress or a VmPipeAddress)"), type.getMessage());
        IllegalArgumentException timeout = assertThrows(IllegalArgumentException.class,
                () -> FlowConnector.builder().connectTimeout(Duration.ZERO));
        assertEquals("connectTimeout: PT0S (expected: >= 1 ms)", timeout.getMessage());
        IllegalArgumentException processors = assertThrows(IllegalArgumentException.class,
                () -> FlowConnector.builder().ioProcessors(300));
        assertEquals("ioProcessors: 300 (expected: 1..256)", processors.getMessage());
        assertEquals(TransportConfig.DEFAULT, FlowConnector.create().config());
    }
}
