package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.Connector;
import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.TlsUpgrade;
import dev.flow.Transport;
import dev.flow.TransportConfig;
import dev.flow.loader.ContinuationClassLoader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * In-band TLS upgrades ({@link Transport#startTls}, STARTTLS): a {@link FlowServer} running {@code
 * flowtest.mina.StartTlsEcho} in each mode against a plain socket that the JDK's TLS client takes over
 * after the go-ahead, and a {@link FlowConnector} transport that upgrades as a client; the injection case
 * (plain text pipelined after the command), and every refusal. The client side runs {@code
 * flowtest.mina.StartTlsClient} on a plain thread and as a flow against the JDK's TLS server.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsUpgradeTest {

    private static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress(Pairs.LOOPBACK, 0);
    private static final String GO_AHEAD = "220 go ahead";

    private final List<FlowServer> servers = new ArrayList<>();
    private final Queue<String> outcomes = new ConcurrentLinkedQueue<>();
    private final List<AutoCloseable> resources = new ArrayList<>();
    private FlowScheduler scheduler;

    @AfterEach
    void checkNothingLeaked() throws Exception {
        for (AutoCloseable r : resources) {
            r.close();
        }
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

    private static TlsUpgrade.Builder serverUpgrade() {
        return TlsUpgrade.server(TestTls.serverContext()).goAhead(GO_AHEAD);
    }

    private FlowServer start(ServerMode mode, TlsUpgrade upgrade) throws IOException {
        return start(mode, upgrade, null);
    }

    private FlowServer start(ServerMode mode, TlsUpgrade upgrade, SSLContext fromFirstByte) throws IOException {
        if (mode != ServerMode.SYNC && scheduler == null) {
            scheduler = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("tls-upgrade").build();
        }
        FlowServer.Builder b = mode.builder(scheduler)
                .config(TransportConfig.builder().readTimeout(Duration.ofSeconds(20)).build());
        if (fromFirstByte != null) {
            b.tls(fromFirstByte);
        }
        if (mode == ServerMode.SYNC) {
            b.handler(flowtest.mina.StartTlsEcho.class, upgrade, outcomes);
        } else {
            ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.mina").strict(true).build();
            b.handler(loader, "flowtest.mina.StartTlsEcho", upgrade, outcomes);
        }
        FlowServer server = b.start(ANY_LOOPBACK_PORT);
        servers.add(server);
        return server;
    }

    /** A plain TCP client that reads lines byte by byte, so that nothing after the go-ahead is consumed. */
    private final class PlainClient {
        final Socket socket;
        final InputStream in;
        final OutputStream out;

        PlainClient(FlowServer server) throws IOException {
            InetSocketAddress a = (InetSocketAddress) server.localAddress();
            socket = new Socket(a.getAddress(), a.getPort());
            socket.setSoTimeout(20_000);
            resources.add(socket);
            in = socket.getInputStream();
            out = socket.getOutputStream();
        }

        void send(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }

        String line() throws IOException {
            return readLine(in);
        }

        /** Sends STARTTLS and checks the server's go-ahead. */
        void startTls() throws IOException {
            send("STARTTLS\n");
            assertEquals(GO_AHEAD, line());
        }

        /** Takes the connection over with the JDK's TLS client, checking the host name as HTTPS does. */
        SSLSocket upgrade() throws IOException {
            SSLSocket s = (SSLSocket) TestTls.clientContext().getSocketFactory()
                    .createSocket(socket, "localhost", socket.getPort(), true);
            SSLParameters p = s.getSSLParameters();
            p.setEndpointIdentificationAlgorithm("HTTPS");
            s.setSSLParameters(p);
            s.startHandshake();
            resources.add(s);
            return s;
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                return line.size() == 0 ? null : line.toString(StandardCharsets.US_ASCII);
            }
            line.write(b);
        }
        return line.toString(StandardCharsets.US_ASCII).replace("\r", "");
    }

    private static void send(SSLSocket s, String text) throws IOException {
        s.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
    }

    /** Says quit over {@code s} and checks the server's goodbye. */
    private static void quit(SSLSocket s) throws IOException {
        send(s, "quit\n");
        assertEquals("bye", readLine(s.getInputStream()));
    }

    /** Waits until {@code n} sessions of {@code server} have ended. */
    private static void awaitCompleted(FlowServer server, int n) {
        Conditions.await(n + " session(s) to end", () -> server.stats().completed() == n, () -> server.stats().toString());
    }

    private static void assertClosedByServer(InputStream in) {
        try {
            assertNull(readLine(in), "the server closed the connection");
        } catch (IOException e) {
            // A reset is a close too.
        }
    }

    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void aServerUpgradesAfterItsGoAheadAndTalksTls(ServerMode mode) throws Exception {
        FlowServer server = start(mode, serverUpgrade().build());
        PlainClient c = new PlainClient(server);
        c.send("plain\n");
        assertEquals("plain", c.line());
        c.startTls();
        if (mode != ServerMode.SYNC) {
            // The upgrade is a suspension point: the flow waits for the handshake without its worker.
            Conditions.await("the flow to suspend for the handshake", () -> scheduler.stats().suspended() == 1,
                    () -> scheduler.stats().toString());
        }
        SSLSocket s = c.upgrade();
        assertEquals("secured " + s.getSession().getProtocol() + " true", readLine(s.getInputStream()));
        send(s, "inside\n");
        assertEquals("inside", readLine(s.getInputStream()));
        quit(s);
        awaitCompleted(server, 1);
        assertEquals(List.of("secured " + s.getSession().getProtocol(), "quit"), List.copyOf(outcomes));
    }

    @Test
    void aFlowResumedOnTheIoThreadThatReadItsStartTlsCommandUpgrades() throws Exception {
        String property = System.setProperty(DirectReader.PROPERTY, "always");
        try {
            aFlowResumedOnTheIoThreadThatReadItsStartTlsCommandUpgradesWithDirectReads();
        } finally {
            if (property == null) {
                System.clearProperty(DirectReader.PROPERTY);
            } else {
                System.setProperty(DirectReader.PROPERTY, property);
            }
        }
    }

    /** The I/O thread reads the command through the session's {@link DirectReader}. */
    private void aFlowResumedOnTheIoThreadThatReadItsStartTlsCommandUpgradesWithDirectReads() throws Exception {
        FlowServer server = start(ServerMode.IO_THREADS, serverUpgrade().build());
        PlainClient c = new PlainClient(server);
        c.send("plain\n");
        assertEquals("plain", c.line());
        // The command arrives while the flow waits for it: the I/O thread that reads it runs the flow, which
        // upgrades there, inside that thread's read of the session.
        Conditions.await("the flow to wait for the command", () -> scheduler.stats().suspended() == 1,
                () -> scheduler.stats().toString());
        c.startTls();
        SSLSocket s = c.upgrade();
        assertEquals("secured " + s.getSession().getProtocol() + " true", readLine(s.getInputStream()));
        quit(s);
        awaitCompleted(server, 1);
    }

    @ParameterizedTest
    @EnumSource(value = ServerMode.class, names = {"SYNC", "WORKERS"})
    void plainTextPipelinedAfterStartTlsIsDiscardedNotRunInsideTls(ServerMode mode) throws Exception {
        FlowServer server = start(mode, serverUpgrade().build());
        PlainClient c = new PlainClient(server);
        // CVE-2011-0411: a man in the middle appends a command to the client's STARTTLS.
        c.send("STARTTLS\nINJECTED\n");
        assertEquals(GO_AHEAD, c.line());
        SSLSocket s = c.upgrade();
        assertTrue(readLine(s.getInputStream()).startsWith("secured "));
        send(s, "first inside\n");
        assertEquals("first inside", readLine(s.getInputStream()), "the injected line was never read");
        quit(s);
        awaitCompleted(server, 1);
    }

    @Test
    void theRejectPolicyRefusesBufferedPlainTextAndLeavesTheSessionPlain() throws Exception {
        FlowServer server = start(ServerMode.SYNC, serverUpgrade().plainInput(TlsUpgrade.PlainInput.REJECT).build());
        PlainClient c = new PlainClient(server);
        c.send("STARTTLS\nINJECTED\n");
        assertEquals("554 IOException", c.line());
        assertEquals("INJECTED", c.line(), "still plain text, still buffered");
        c.send("quit\n");
        assertEquals("bye", c.line());
        awaitCompleted(server, 1);
        String refusal = outcomes.peek();
        assertTrue(refusal.startsWith("IOException: startTls: 9 bytes of plain-text input from /127.0.0.1:"), refusal);
        assertTrue(refusal.contains("CVE-2011-0411"), refusal);
    }

    @ParameterizedTest
    @EnumSource(value = ServerMode.class, names = {"SYNC", "WORKERS"})
    void aSecondUpgradeIsRefusedAndTheTlsSessionGoesOn(ServerMode mode) throws Exception {
        FlowServer server = start(mode, serverUpgrade().build());
        PlainClient c = new PlainClient(server);
        c.startTls();
        SSLSocket s = c.upgrade();
        readLine(s.getInputStream());
        send(s, "STARTTLS\n");
        assertEquals("454 IllegalStateException", readLine(s.getInputStream()));
        quit(s);
        awaitCompleted(server, 1);
        String refusal = new ArrayList<>(outcomes).get(1);
        assertTrue(refusal.matches("IllegalStateException: startTls: MinaTransport\\[.*\\] was already upgraded with "
                + "TlsUpgrade\\[server, .*\\] \\(expected: one upgrade per connection\\)"), refusal);
    }

    @Test
    void aSessionEncryptedFromItsFirstByteRefusesAnUpgrade() throws Exception {
        FlowServer server = start(ServerMode.SYNC, serverUpgrade().build(), TestTls.serverContext());
        InetSocketAddress a = (InetSocketAddress) server.localAddress();
        SSLSocket s = (SSLSocket) TestTls.clientContext().getSocketFactory().createSocket(a.getAddress(), a.getPort());
        resources.add(s);
        s.setSoTimeout(20_000);
        send(s, "STARTTLS\n");
        assertEquals("454 IllegalStateException", readLine(s.getInputStream()));
        quit(s);
        String refusal = outcomes.peek();
        assertTrue(refusal.contains("is already secured by TLS (" + s.getSession().getProtocol()
                + ") (expected: a plain-text session)"), refusal);
    }

    @Test
    void anInVmPipeCannotUpgrade() throws Exception {
        try (Pairs pairs = new Pairs()) {
            Pairs.Pipe p = pairs.pipe(TransportConfig.DEFAULT);
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> p.transport.startTls(serverUpgrade().build()));
            assertTrue(e.getMessage().matches("startTls: MinaTransport\\[.*\\] is a vmpipe session, which cannot"
                    + " upgrade to TLS \\(expected: a TCP session\\)"), e.getMessage());
        }
    }

    @Test
    void aTransportWithoutTlsRefusesByDefault() {
        Transport plain = new Transport() {
            @Override
            public String readLine() {
                return null;
            }

            @Override
            public String readLine(dev.flow.LineTerminator terminator, int maxLength) {
                return null;
            }

            @Override
            public int read(byte[] dst, int off, int len) {
                return -1;
            }

            @Override
            public void writeLine(String line) {
            }

            @Override
            public void write(byte[] src, int off, int len) {
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }

            @Override
            public java.net.SocketAddress remoteAddress() {
                return null;
            }

            @Override
            public TransportConfig config() {
                return TransportConfig.DEFAULT;
            }
        };
        assertNull(plain.tlsSession());
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> plain.startTls(serverUpgrade().build()));
        assertTrue(e.getMessage().contains("cannot upgrade to TLS (expected: a transport over a MINA TCP session"),
                e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(value = ServerMode.class, names = {"SYNC", "WORKERS"})
    void aFailedHandshakeClosesThatSessionOnly(ServerMode mode) throws Exception {
        FlowServer server = start(mode, serverUpgrade().build());
        PlainClient good = new PlainClient(server);
        good.startTls();
        PlainClient bad = new PlainClient(server);
        bad.startTls();
        bad.send("this is not a ClientHello\n");
        assertClosedByServer(bad.in);
        SSLSocket s = good.upgrade();
        readLine(s.getInputStream());
        send(s, "still here\n");
        assertEquals("still here", readLine(s.getInputStream()));
        quit(s);
        awaitCompleted(server, 2);
        assertTrue(outcomes.stream().anyMatch(o -> o.startsWith("IOException: TLS handshake with /127.0.0.1:")
                && o.contains(" failed: ")), outcomes.toString());
    }

    @ParameterizedTest
    @EnumSource(value = ServerMode.class, names = {"SYNC", "WORKERS"})
    void aHandshakeThatNeverStartsTimesOutAndClosesTheSession(ServerMode mode) throws Exception {
        FlowServer server = start(mode, serverUpgrade().handshakeTimeout(Duration.ofMillis(300)).build());
        PlainClient c = new PlainClient(server);
        c.startTls();
        assertClosedByServer(c.in);
        awaitCompleted(server, 1);
        assertTrue(outcomes.stream().anyMatch(o -> o.matches("SocketTimeoutException: TLS handshake with /127.0.0.1:\\d+"
                + " not complete after 300 ms \\(handshakeTimeout\\); session closed")), outcomes.toString());
    }

    @Test
    void aConnectorUpgradesAsAClientAfterTheServersGoAheadAndSeesTheCertificate() throws Exception {
        FlowServer server = start(ServerMode.WORKERS, serverUpgrade().build());
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        try (FlowConnector connector = FlowConnector.builder().ioProcessors(1)
                .config(TransportConfig.builder().readTimeout(Duration.ofSeconds(20)).build()).build();
             Transport t = connector.connect(server.localAddress())) {
            assertNull(t.tlsSession());
            t.writeLine("STARTTLS");
            assertEquals(GO_AHEAD, t.readLine());
            SSLSession session = t.startTls(TlsUpgrade.client(TestTls.clientContext()).peer("localhost", port).build());
            assertSame(session, t.tlsSession());
            assertEquals("CN=localhost", ((X509Certificate) session.getPeerCertificates()[0]).getSubjectX500Principal().getName());
            assertTrue(session.getCipherSuite().startsWith("TLS_"), session.getCipherSuite());
            assertEquals("secured " + session.getProtocol() + " true", t.readLine());
            t.writeLine("quit");
            assertEquals("bye", t.readLine());
        }
        awaitCompleted(server, 1);
    }

    @Test
    void aClientUpgradeFailsWhenTheCertificateDoesNotNameThePeer() throws Exception {
        FlowServer server = start(ServerMode.SYNC, serverUpgrade().build());
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        try (FlowConnector connector = FlowConnector.builder().ioProcessors(1).build();
             Transport t = connector.connect(server.localAddress())) {
            t.writeLine("STARTTLS");
            assertEquals(GO_AHEAD, t.readLine());
            IOException e = assertThrows(IOException.class, () -> t.startTls(
                    TlsUpgrade.client(TestTls.clientContext()).peer("mail.example.org", port).build()));
            assertTrue(e.getMessage().startsWith("TLS handshake with /127.0.0.1:" + port + " failed: "), e.getMessage());
            assertThrows(IOException.class, () -> t.writeLine("after"), "the session is closed");
        }
        Conditions.await("the server session to end", () -> server.stats().completed() == 1, () -> server.stats().toString());
    }

    /**
     * A STARTTLS server on its own thread, over the JDK's TLS server: reads "STARTTLS", sends the
     * go-ahead, waits until the client's ClientHello has arrived and runs {@code beforeHandshake} (the
     * client is then inside {@code startTls}, waiting for the server), handshakes, echoes lines until
     * "quit", answers "bye" and closes. Gives the negotiated protocol.
     */
    private static Future<String> jdkStartTlsServer(ServerSocket listener, Runnable beforeHandshake) {
        FutureTask<String> task = new FutureTask<>(() -> {
            try (Socket plain = listener.accept()) {
                plain.setSoTimeout(20_000);
                assertEquals("STARTTLS", readLine(plain.getInputStream()));
                plain.getOutputStream().write((GO_AHEAD + "\r\n").getBytes(StandardCharsets.US_ASCII));
                Conditions.await("the client's ClientHello to arrive", () -> available(plain) > 0);
                beforeHandshake.run();
                try (SSLSocket s = (SSLSocket) TestTls.serverContext().getSocketFactory()
                        .createSocket(plain, null, plain.getPort(), false)) {
                    s.setUseClientMode(false);
                    s.startHandshake();
                    String line;
                    while (!"quit".equals(line = readLine(s.getInputStream()))) {
                        send(s, line + "\n");
                    }
                    send(s, "bye\n");
                    return s.getSession().getProtocol();
                }
            }
        });
        Thread t = new Thread(task, "jdk-starttls-server");
        t.setDaemon(true);
        t.start();
        return task;
    }

    private static int available(Socket s) {
        try {
            return s.getInputStream().available();
        } catch (IOException e) {
            return -1;
        }
    }

    @Test
    void aClientFlowSuspendsDuringTheHandshakeAndSeesWhatAPlainThreadSees() throws Exception {
        List<String> lines = List.of("first inside", "second inside");
        try (ServerSocket listener = new ServerSocket(0, 2, Pairs.LOOPBACK);
             FlowConnector connector = FlowConnector.builder().ioProcessors(1)
                     .config(TransportConfig.builder().readTimeout(Duration.ofSeconds(20)).build()).build()) {
            TlsUpgrade upgrade = TlsUpgrade.client(TestTls.clientContext()).peer("localhost", listener.getLocalPort()).build();
            Connector target = connector.connector(listener.getLocalSocketAddress());

            Future<String> first = jdkStartTlsServer(listener, () -> { });
            List<String> onThread = new flowtest.mina.StartTlsClient(target, upgrade, lines).call();
            String protocol = first.get(20, TimeUnit.SECONDS);
            assertEquals(List.of(GO_AHEAD, "tls " + protocol + " true", "first inside", "second inside", "bye", "null"),
                    onThread);

            scheduler = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("tls-client").build();
            ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.mina").strict(true).build();
            Future<String> second = jdkStartTlsServer(listener, () -> Conditions.await(
                    "the client flow to suspend in startTls", () -> scheduler.stats().suspended() == 1
                            && scheduler.stats().running() == 0, () -> scheduler.stats().toString()));
            @SuppressWarnings("unchecked")
            Callable<List<String>> client = loader.newInstance(Callable.class, "flowtest.mina.StartTlsClient",
                    target, upgrade, lines);
            FlowHandle<List<String>> flow = scheduler.submit(client);
            assertEquals(onThread, flow.get(Duration.ofSeconds(20)), "the same exchange as on a plain thread");
            assertEquals(protocol, second.get(20, TimeUnit.SECONDS));
            assertEquals(0, scheduler.stats().failed(), scheduler.stats().toString());
        }
    }
}
