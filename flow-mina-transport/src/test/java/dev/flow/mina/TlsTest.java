package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.Transport;
import dev.flow.TransportConfig;
import dev.flow.loader.ContinuationClassLoader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.filterchain.IoFilterAdapter;
import org.apache.mina.core.session.IoSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * TLS through MINA's {@code SslFilter}: a self-signed certificate ({@link TestTls}), the JDK's own TLS
 * client ({@link SSLSocket}) against {@link FlowServer} in sync
 * and continuation mode (also with flows resumed on MINA's I/O threads, {@link Dispatch#IO_THREADS}),
 * and {@link FlowConnector} against the JDK's TLS server.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsTest {

    private static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress(Pairs.LOOPBACK, 0);
    private static SSLContext serverContext;
    private static SSLContext clientContext;

    private final List<FlowServer> servers = new ArrayList<>();
    private final Queue<String> outcomes = new ConcurrentLinkedQueue<>();
    private FlowScheduler scheduler;

    @BeforeAll
    static void makeSelfSignedCertificate() {
        serverContext = TestTls.serverContext();
        clientContext = TestTls.clientContext();
    }

    @AfterEach
    void checkNothingLeaked() throws Exception {
        for (FlowServer s : servers) {
            s.close();
            assertEquals(0, s.openSessions());
            assertEquals(0, s.stats().failed(), s.stats().toString());
        }
        if (scheduler != null) {
            Conditions.await("the scheduler to be idle", () -> scheduler.stats().isIdle(), () -> scheduler.stats().toString());
            scheduler.close();
            assertTrue(scheduler.awaitTermination(Duration.ofSeconds(5)));
        }
    }

    /** A JDK TLS client that checks the server's name against the certificate, as HTTPS does. */
    private static SSLSocket jdkClient(FlowServer server) throws IOException {
        InetSocketAddress a = (InetSocketAddress) server.localAddress();
        SSLSocket s = (SSLSocket) clientContext.getSocketFactory().createSocket(a.getAddress(), a.getPort());
        SSLParameters params = s.getSSLParameters();
        params.setEndpointIdentificationAlgorithm("HTTPS");
        s.setSSLParameters(params);
        s.setSoTimeout(10_000);
        s.startHandshake();
        return s;
    }

    private static void echoOverJdkClient(FlowServer server, String text) throws IOException {
        try (SSLSocket s = jdkClient(server)) {
            assertTrue(s.getSession().getProtocol().startsWith("TLS"), s.getSession().getProtocol());
            OutputStream out = s.getOutputStream();
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            for (int i = 0; i < 20; i++) {
                out.write((text + " " + i + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                assertEquals(text + " " + i, in.readLine());
            }
            out.write("quit\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            assertEquals("bye", in.readLine());
        }
    }

    @Test
    void aSyncServerSpeaksTlsToTheJdkClient() throws Exception {
        FlowServer server = FlowServer.builder().threadPerSession().tls(serverContext)
                .handler(flowtest.mina.LineEcho.class, outcomes).start(ANY_LOOPBACK_PORT);
        servers.add(server);
        echoOverJdkClient(server, "sync");
        Conditions.await("the session to complete", () -> server.stats().completed() == 1, () -> server.stats().toString());
        assertEquals(List.of("quit"), List.copyOf(outcomes));
    }

    @Test
    void aServerWhoseClientsSpeakFirstHandsTheHandshakesFirstBytesToTheTlsFilter() throws Exception {
        for (int probeLimit : new int[] {FlowSocketAcceptor.PROBE_BYTES, 1}) {
            FlowServer server = FlowServer.builder().threadPerSession().tls(serverContext).clientSpeaksFirst(true)
                    .handler(flowtest.mina.LineEcho.class, outcomes).start(ANY_LOOPBACK_PORT);
            servers.add(server);
            // the acceptor reads the client hello whole, or (1) only its first byte
            server.tcpAcceptor().probeReads((ch, into) -> ch.read(into.limit(Math.min(into.limit(), probeLimit))));
            echoOverJdkClient(server, "first " + probeLimit);
            Conditions.await("the session to complete", () -> server.stats().completed() == 1, () -> server.stats().toString());
        }
        assertEquals(List.of("quit", "quit"), List.copyOf(outcomes));
    }

    @Test
    void aContinuationServerSpeaksTlsToConcurrentJdkClientsOnOneWorker() throws Exception {
        scheduler = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("tls-test").build();
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.mina").strict(true).build();
        FlowServer server = FlowServer.builder().scheduler(scheduler).tls(serverContext)
                .handler(loader, "flowtest.mina.LineEcho", outcomes).start(ANY_LOOPBACK_PORT);
        servers.add(server);
        List<CompletableFuture<Void>> clients = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String name = "client-" + i;
            clients.add(CompletableFuture.runAsync(() -> {
                try {
                    echoOverJdkClient(server, name);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }));
        }
        for (CompletableFuture<Void> c : clients) {
            c.get(30, TimeUnit.SECONDS);
        }
        Conditions.await("the sessions to complete", () -> server.stats().completed() == 4, () -> server.stats().toString());
        assertTrue(scheduler.stats().resumed() >= 4, "each session flow suspended waiting for input: " + scheduler.stats());
    }

    @Test
    void flowsResumedOnTheIoThreadsSpeakTlsToTheJdkClient() throws Exception {
        scheduler = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("tls-io-test").build();
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.mina").strict(true).build();
        FlowServer server = FlowServer.builder().scheduler(scheduler).dispatch(Dispatch.IO_THREADS).tls(serverContext)
                .handler(loader, "flowtest.mina.ThreadEcho", new CompletableFuture<String>()).start(ANY_LOOPBACK_PORT);
        servers.add(server);
        try (SSLSocket s = jdkClient(server)) {
            OutputStream out = s.getOutputStream();
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            for (int i = 0; i < 20; i++) {
                if (i > 0) {
                    // The flow waits for this line: the input wakes it, on the I/O thread that read it (once
                    // its wake-up is registered; before that, the worker registering it would find the input).
                    Conditions.await("the flow to wait for input", () -> scheduler.stats().suspended() == 1
                            && server.sessionsAwaitingInput() == 1, () -> scheduler.stats().toString());
                }
                out.write(("line " + i + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                String reply = in.readLine();
                assertTrue(reply.startsWith("line " + i + " on "), reply);
                if (i > 0) {
                    assertTrue(reply.contains("NioProcessor"), "resumed on the I/O thread, not a worker: " + reply);
                }
            }
        }
        Conditions.await("the session to complete", () -> server.stats().completed() == 1, () -> server.stats().toString());
    }

    @Test
    void aFlowConnectorSpeaksTlsToTheJdkServer() throws Exception {
        try (SSLServerSocket jdkServer = (SSLServerSocket) serverContext.getServerSocketFactory()
                .createServerSocket(0, 4, Pairs.LOOPBACK);
             FlowConnector connector = FlowConnector.builder().tls(clientContext).ioProcessors(1)
                     .config(TransportConfig.builder().readTimeout(Duration.ofSeconds(10)).build()).build()) {
            CompletableFuture<String> served = CompletableFuture.supplyAsync(() -> {
                try (SSLSocket s = (SSLSocket) jdkServer.accept()) {
                    s.setSoTimeout(10_000);
                    BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                    String line = in.readLine();
                    s.getOutputStream().write(("tls: " + line + "\n").getBytes(StandardCharsets.UTF_8));
                    s.getOutputStream().flush();
                    return s.getSession().getProtocol();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            try (Transport t = connector.connect(new InetSocketAddress(Pairs.LOOPBACK, jdkServer.getLocalPort()))) {
                t.writeLine("hello");
                assertEquals("tls: hello", t.readLine());
            }
            assertTrue(served.get(10, TimeUnit.SECONDS).startsWith("TLS"));
        }
    }

    @Test
    void aFlowConnectorAndAFlowServerTalkTlsThroughAnAddedFilter() throws Exception {
        AtomicLong received = new AtomicLong();
        FlowServer server = FlowServer.builder().threadPerSession().tls(serverContext)
                .filter("count", new IoFilterAdapter() {
                    @Override
                    public void messageReceived(NextFilter next, IoSession session, Object message) {
                        received.addAndGet(((IoBuffer) message).remaining());
                        next.messageReceived(session, message);
                    }
                })
                .handler(flowtest.mina.LineEcho.class, outcomes).start(ANY_LOOPBACK_PORT);
        servers.add(server);
        try (FlowConnector connector = FlowConnector.builder().tls(clientContext).ioProcessors(1)
                .config(TransportConfig.builder().readTimeout(Duration.ofSeconds(10)).build()).build();
             Transport t = connector.connect(server.localAddress())) {
            t.writeLine("through the chain");
            assertEquals("through the chain", t.readLine());
            t.writeLine("quit");
            assertEquals("bye", t.readLine());
        }
        assertEquals("through the chain\nquit\n".length(), received.get(),
                "the added filter, after TLS, sees the decrypted bytes");
    }
}
