package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.loader.ContinuationClassLoader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.HandshakeCompletedEvent;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * TLS that plain JDK code layers over its own socket ({@code context.getSocketFactory().createSocket(socket, host,
 * port, autoClose)}, {@code flowtest.mina.TlsOps}), against a JDK {@code SSLServerSocket}: loaded normally it runs
 * the JDK's {@code SSLSocket} over the JDK's socket; loaded through a strict loader, as a flow, Flow's TLS socket over
 * Flow's socket, which must give the same transcript and suspend (a strict flow is refused at any pinned wait); and
 * loaded through it on a plain thread, Flow's sockets blocking, the same transcript again.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LayeredTlsTest {

    private static final ContinuationClassLoader STRICT = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(true).build();

    private static SSLServerSocket server;
    /** A plain peer that accepts and never answers: a handshake with it waits until the socket's timeout. */
    private static java.net.ServerSocket silent;
    private static ExecutorService peers;

    private final FlowScheduler scheduler = FlowScheduler.builder().workers(2).policy(SuspendPolicy.immediately())
            .name("layered-tls-test").build();

    @BeforeAll
    static void startPeer() throws IOException {
        server = (SSLServerSocket) TestTls.serverContext().getServerSocketFactory()
                .createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        SSLParameters p = server.getSSLParameters();
        p.setApplicationProtocols(new String[] {"flow/1", "http/1.1"});
        server.setSSLParameters(p);
        silent = new java.net.ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        peers = Executors.newCachedThreadPool();
        peers.submit(() -> {
            java.util.List<Socket> held = new java.util.ArrayList<>();
            try {
                while (true) {
                    held.add(silent.accept());
                }
            } catch (IOException e) {
                for (Socket s : held) {
                    s.close();
                }
                return null;
            }
        });
        peers.submit(() -> {
            while (!server.isClosed()) {
                Socket s;
                try {
                    s = server.accept();
                } catch (IOException e) {
                    return null;
                }
                peers.submit(() -> serve(s));
            }
            return null;
        });
    }

    @AfterAll
    static void stopPeer() throws IOException {
        server.close();
        silent.close();
        peers.shutdownNow();
    }

    @AfterEach
    void stopScheduler() {
        scheduler.close();
    }

    /** Greets with {@code hi}, answers each line in upper case, {@code bye} closes; a failed handshake ends it. */
    private static Void serve(Socket s) {
        try (s) {
            Writer w = new OutputStreamWriter(s.getOutputStream(), StandardCharsets.UTF_8);
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            w.write("hi\n");
            w.flush();
            for (String line; (line = in.readLine()) != null; ) {
                w.write(line.toUpperCase(Locale.ROOT) + "\n");
                w.flush();
                if (line.equals("bye")) {
                    break;
                }
            }
        } catch (IOException e) {
            // the client's handshake failed, or it went away
        }
        return null;
    }

    private static InetSocketAddress address(String op) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(),
                op.equals("silent") ? silent.getLocalPort() : server.getLocalPort());
    }

    private static SSLContext context(String op) throws Exception {
        if (!op.startsWith("untrusted")) {
            return TestTls.clientContext();
        }
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(null, null, null);
        return c;
    }

    @ParameterizedTest
    @ValueSource(strings = {"explicit", "read-first", "write-first", "session-first", "alpn", "untrusted",
        "untrusted-handshake", "untrusted-read", "untrusted-write", "silent"})
    void tlsLayeredOverItsOwnSocketByLoadedCodeGivesTheJdksTranscriptAndSuspendsInAStrictFlow(String op)
            throws Exception {
        SSLContext context = context(op);
        String expected = new flowtest.mina.TlsOps(op, context, address(op)).call();
        Callable<?> task = STRICT.newInstance(Callable.class, "flowtest.mina.TlsOps", op, context, address(op));
        long resumedBefore = scheduler.stats().resumed();
        Object got;
        try {
            got = scheduler.submit(task).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the flow did not end: " + scheduler.dump(), e);
        }
        assertEquals(expected, got, "as a strict flow");
        assertTrue(scheduler.stats().resumed() > resumedBefore, "the flow suspended: " + scheduler.stats());
        Callable<?> onThread = STRICT.newInstance(Callable.class, "flowtest.mina.TlsOps", op, context, address(op));
        assertEquals(expected, onThread.call(), "loaded, on a plain thread (Flow's sockets, blocking)");
    }

    @Test
    void aHandshakeCompletedListenerHearsOfTheHandshakeWithTheSocketAndItsSession() throws Exception {
        FlowConnector connector = FlowConnector.builder().ioProcessors(1).build();
        try (Socket plain = connector.socketFactory().createSocket(InetAddress.getLoopbackAddress(),
                server.getLocalPort())) {
            SSLSocket s = (SSLSocket) new FlowTlsSocketFactory(TestTls.clientContext())
                    .createSocket(plain, "localhost", server.getLocalPort(), true);
            assertEquals(FlowTlsSocket.class, s.getClass());
            java.util.List<HandshakeCompletedEvent> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
            s.addHandshakeCompletedListener(heard::add);
            s.startHandshake();
            assertEquals(1, heard.size(), "the listener heard of the handshake");
            assertSame(s, heard.get(0).getSocket());
            assertSame(s.getSession(), heard.get(0).getSession());
            s.close();
            assertTrue(plain.isClosed(), "closing the TLS socket closes the connection");
        } finally {
            connector.close();
        }
    }

    @Test
    void overAConnectorThatDoesTlsItselfTheLayeringIsTheJdks() throws Exception {
        FlowConnector connector = FlowConnector.builder().ioProcessors(1).tls(TestTls.clientContext()).build();
        try (Socket secured = connector.socketFactory().createSocket(InetAddress.getLoopbackAddress(),
                server.getLocalPort())) {
            Socket layered = new FlowTlsSocketFactory(TestTls.clientContext())
                    .createSocket(secured, "localhost", server.getLocalPort(), false);
            assertTrue(layered instanceof SSLSocket && !(layered instanceof FlowTlsSocket), layered.getClass().getName());
        } finally {
            connector.close();
        }
    }
}
