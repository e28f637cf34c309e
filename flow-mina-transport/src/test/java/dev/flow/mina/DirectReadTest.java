package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.Transport;
import dev.flow.TransportConfig;
import dev.flow.loader.ContinuationClassLoader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.mina.core.filterchain.IoFilterAdapter;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.core.session.IoSessionConfig;
import org.apache.mina.transport.socket.DefaultSocketSessionConfig;
import org.apache.mina.transport.socket.nio.NioSocketAcceptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link DirectReader}: a reader whose input is empty reads the bytes waiting in its socket on its own
 * thread, without a turn of the session's I/O thread, on the server (a flow on a worker) and on the
 * client (a plain thread over a connector's transport), with {@code -Dflow.mina.directReads=always} (set
 * before each test). Which sessions read directly when the property is unset (a connector's, not a
 * server's), and MINA's read buffer meanwhile.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DirectReadTest {

    private static final ContinuationClassLoader LOADER = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(true).build();
    /** How long a held thread waits for its release at most. */
    private static final long HOLD_LIMIT_SECONDS = 20;

    private final Queue<String> outcomes = new ConcurrentLinkedQueue<>();
    private final List<FlowServer> servers = new ArrayList<>();
    private final FlowScheduler scheduler = FlowScheduler.builder().workers(2).name("direct-read").build();
    /** Counted down when the I/O thread is held in the first session's end of input. */
    private final CountDownLatch ioHeld = new CountDownLatch(1);
    private final CountDownLatch releaseIo = new CountDownLatch(1);
    /** Counted down when a flow holds its worker after the line "stall". */
    private final CountDownLatch flowHeld = new CountDownLatch(1);
    private final CountDownLatch releaseFlow = new CountDownLatch(1);
    /** The server's side of {@link #connectToEcho()}'s session. */
    private final CompletableFuture<MinaTransport> serverSide = new CompletableFuture<>();
    private FlowConnector connector;

    /** The property's value before the test. */
    private String property;

    @BeforeEach
    void directReadsOn() {
        property = System.setProperty(DirectReader.PROPERTY, "always");
    }

    @AfterEach
    void closeAll() throws Exception {
        releaseIo.countDown();
        releaseFlow.countDown();
        try {
            Teardown.closeAll(connector != null ? connector : FlowConnector.builder().build(), servers, scheduler);
        } finally {
            if (property == null) {
                System.clearProperty(DirectReader.PROPERTY);
            } else {
                System.setProperty(DirectReader.PROPERTY, property);
            }
        }
    }

    @Test
    void aSessionOfMinasOwnProcessorIsNeverReadDirectly() throws Exception {
        CompletableFuture<MinaTransport> opened = new CompletableFuture<>();
        NioSocketAcceptor acceptor = new NioSocketAcceptor(1);
        acceptor.setHandler(new TransportIoHandler(TransportConfig.DEFAULT, new TransportIoHandler.Listener() {
            @Override
            public void opened(MinaTransport t) {
                opened.complete(t);
            }

            @Override
            public void closed(MinaTransport t) {
            }
        }));
        try {
            acceptor.bind(new InetSocketAddress(Pairs.LOOPBACK, 0));
            try (Socket s = new Socket(Pairs.LOOPBACK, acceptor.getLocalAddress().getPort())) {
                // MINA's processor reads through the chain: a direct read beside it could reorder the bytes
                assertEquals(null, opened.get(10, TimeUnit.SECONDS).directReader());
            }
        } finally {
            acceptor.dispose(true);
        }
    }

    @Test
    void aValueOfThePropertyOtherThanAlwaysAdaptiveOrFalseIsRefusedByName() {
        System.setProperty(DirectReader.PROPERTY, "sometimes");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DirectReader.of(null, null));
        assertEquals("flow.mina.directReads: sometimes (expected: always, adaptive or false)", e.getMessage());
    }

    @Test
    void aFlowReadsTheBytesWaitingInItsSocketWhileItsIoThreadIsHeld() throws Exception {
        FlowServer server = FlowServer.builder().scheduler(scheduler).dispatch(Dispatch.WORKERS).ioProcessors(1)
                .filter("hold", new HoldAtEndOfInput())
                .handler(LOADER, "flowtest.mina.StallingEcho", new AtomicBoolean(false), (Runnable) this::holdFlow,
                        outcomes)
                .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        servers.add(server);
        try (Socket a = connect(server); Socket b = connect(server)) {
            BufferedReader ra = reader(a);
            BufferedReader rb = reader(b);
            send(a, "x");
            assertEquals("x", ra.readLine());
            send(b, "stall");
            assertTrue(flowHeld.await(10, TimeUnit.SECONDS), "b's flow holds its worker");
            // a's end of input holds the one I/O thread, which reads both sessions
            a.shutdownOutput();
            assertTrue(ioHeld.await(10, TimeUnit.SECONDS), "the I/O thread is held");
            send(b, "y");
            releaseFlow.countDown();
            b.setSoTimeout(5_000);
            assertEquals("stall", rb.readLine(), "b's answer to stall, written after the flow's hold");
            assertEquals("y", rb.readLine(), "b's next line, read by its flow while the I/O thread is held");
            releaseIo.countDown();
            assertEquals(null, ra.readLine(), "a's flow ends at its end of input once the I/O thread goes on");
        }
        Conditions.await("both handlers to end", () -> outcomes.size() == 2, outcomes::toString);
    }

    @Test
    void aClientReadsTheReplyWaitingInItsSocketWhileItsConnectorsIoThreadIsHeld() throws Exception {
        connector = FlowConnector.builder().ioProcessors(1).filter("hold", new HoldAtEndOfInput())
                .config(TransportConfig.builder().readTimeout(Duration.ofSeconds(5)).build()).build();
        try (ServerSocket peer = new ServerSocket(0, 50, Pairs.LOOPBACK)) {
            peer.setSoTimeout(10_000);
            Transport a = connector.connect(peer.getLocalSocketAddress());
            try (Socket sa = peer.accept()) {
                Transport b = connector.connect(peer.getLocalSocketAddress());
                try (Socket sb = peer.accept()) {
                    send(sb, "x");
                    assertEquals("x", b.readLine());
                    // a's end of input holds the connector's one I/O thread, which reads both sessions
                    sa.shutdownOutput();
                    assertTrue(ioHeld.await(10, TimeUnit.SECONDS), "the I/O thread is held");
                    send(sb, "y");
                    assertEquals("y", b.readLine(), "b's reply, read by the client's thread while the I/O thread is held");
                    releaseIo.countDown();
                    assertEquals(null, a.readLine(), "a's end of input once the I/O thread goes on");
                } finally {
                    b.close();
                }
            } finally {
                a.close();
            }
        }
    }

    @Test
    void aConnectorsSessionReadsDirectlyAndAServersDoesNotWhenThePropertyIsUnset() throws Exception {
        System.clearProperty(DirectReader.PROPERTY);
        MinaTransport client = connectToEcho();
        assertNotNull(client.directReader(), "the client's reader");
        assertNull(serverSide.get(10, TimeUnit.SECONDS).directReader(), "the server's reader");
        assertEchoes(client, "x");
    }

    @Test
    void thePropertySetToFalseTurnsAConnectorsDirectReadsOff() throws Exception {
        System.setProperty(DirectReader.PROPERTY, "false");
        MinaTransport client = connectToEcho();
        assertNull(client.directReader());
        assertEchoes(client, "x");
    }

    @Test
    void thePropertySetToAlwaysMakesAServersSessionsReadDirectlyToo() throws Exception {
        MinaTransport client = connectToEcho();
        assertNotNull(client.directReader(), "the client's reader");
        assertNotNull(serverSide.get(10, TimeUnit.SECONDS).directReader(), "the server's reader");
        assertEchoes(client, "x");
    }

    @Test
    void minasReadBufferIsItsMinimumWhileASessionReadsDirectlyAndComesBackWhenItStops() throws Exception {
        System.clearProperty(DirectReader.PROPERTY);
        MinaTransport client = connectToEcho();
        IoSessionConfig config = client.session().getConfig();
        // Flow's connector leaves MINA's default read buffer size
        int configured = new DefaultSocketSessionConfig().getReadBufferSize();
        assertEquals(config.getMinReadBufferSize(), config.getReadBufferSize(), "while reading directly");
        client.directReader().disable();
        assertEquals(configured, config.getReadBufferSize(), "once MINA's chain reads again");
        assertEchoes(client, "a line read through MINA's chain");
    }

    /** Holds the calling worker until {@link #releaseFlow}, as a cold class load does. */
    private void holdFlow() {
        flowHeld.countDown();
        awaitQuietly(releaseFlow);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(HOLD_LIMIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Holds the I/O thread in the first session's end of input until {@link #releaseIo}; sees no bytes. */
    private final class HoldAtEndOfInput extends IoFilterAdapter implements DirectWriter.Passive {
        private final AtomicBoolean first = new AtomicBoolean(true);

        @Override
        public void inputClosed(NextFilter next, IoSession session) throws Exception {
            if (first.getAndSet(false)) {
                ioHeld.countDown();
                awaitQuietly(releaseIo);
            }
            next.inputClosed(session);
        }
    }

    private static Socket connect(FlowServer server) throws IOException {
        Socket s = new Socket();
        s.connect(server.localAddress(), 5_000);
        s.setSoTimeout(10_000);
        return s;
    }

    private static void send(Socket s, String line) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private static BufferedReader reader(Socket s) throws IOException {
        return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
    }

    /** A client transport of a new {@link #connector} connected to a new echo server (one line, sync mode). */
    private MinaTransport connectToEcho() throws Exception {
        FlowServer server = FlowServer.builder().threadPerSession().ioProcessors(1)
                .handler(t -> {
                    serverSide.complete((MinaTransport) t);
                    return () -> {
                        t.writeLine(t.readLine());
                        t.flush();
                        return null;
                    };
                })
                .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        servers.add(server);
        connector = FlowConnector.builder().ioProcessors(1).build();
        return (MinaTransport) connector.connect(server.localAddress());
    }

    private static void assertEchoes(Transport client, String line) throws Exception {
        client.writeLine(line);
        client.flush();
        assertEquals(line, client.readLine());
    }
}
