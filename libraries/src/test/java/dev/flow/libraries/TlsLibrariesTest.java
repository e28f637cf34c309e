package dev.flow.libraries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.icegreen.greenmail.configuration.GreenMailConfiguration;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.flow.loader.ContinuationClassLoader;
import dev.flow.mina.FlowConnector;
import dev.flow.samples.launcher.LaunchOptions;
import dev.flow.samples.launcher.SampleServer;
import dev.flow.samples.redis.RedisProtocol;
import dev.flow.samples.smtp.SmtpProtocol;
import flowtest.libraries.JedisOverTls;
import flowtest.mail.CommonsNetMail;
import flowtest.mail.HttpsClient5;
import flowtest.mail.LayeredTls;
import flowtest.mail.StartTlsCommonsNet;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.SocketFactory;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * TLS for libraries over Flow's sockets, against GreenMail's SMTPS and POP3S (implicit TLS) on 127.0.0.1,
 * trusting only GreenMail's own certificate, both ways: a library that layers TLS on the plain socket itself
 * ({@code context.getSocketFactory().createSocket(socket, host, port, autoClose)}, which in loaded code layers
 * Flow's TLS socket), and the connector's own TLS ({@code FlowConnector.builder().tls(context)}) with the library's
 * TLS off. Either way the sync result, real suspensions and no pin, strict and lenient.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TlsLibrariesTest {

    private static final int SESSIONS = 10;
    private static final String[] PACKAGES = {"flowtest.mail", "org.apache.commons.net"};

    private static GreenMail greenMail;
    private static SSLContext trustingGreenMail;
    private static FlowConnector plain;
    private static FlowConnector tls;
    private static InetSocketAddress smtps;
    private static InetSocketAddress pop3s;
    /** A JDK {@code HttpsServer} with GreenMail's key: {@code /} greets, {@code /echo} returns the request's body. */
    private static HttpsServer https;
    private static ExecutorService httpsThreads;
    /** A context holding GreenMail's key, for the test's own TLS servers. */
    private static SSLContext serving;

    @BeforeAll
    static void startGreenMail() throws Exception {
        greenMail = new GreenMail(new ServerSetup[] {new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTPS),
                new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_POP3S)})
                .withConfiguration(GreenMailConfiguration.aConfig().withDisabledAuthentication());
        greenMail.start();
        smtps = new InetSocketAddress("127.0.0.1", greenMail.getSmtps().getPort());
        pop3s = new InetSocketAddress("127.0.0.1", greenMail.getPop3s().getPort());
        KeyStore keys = GreenMailKeys.keyStore();
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(keys);
        trustingGreenMail = SSLContext.getInstance("TLS");
        trustingGreenMail.init(null, trust.getTrustManagers(), null);
        plain = FlowConnector.builder().ioProcessors(1).build();
        tls = FlowConnector.builder().ioProcessors(1).tls(trustingGreenMail).build();
        KeyManagerFactory km = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        km.init(keys, GreenMailKeys.PASSWORD.toCharArray());
        serving = SSLContext.getInstance("TLS");
        serving.init(km.getKeyManagers(), null, null);
        https = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        https.setHttpsConfigurator(new HttpsConfigurator(serving));
        https.createContext("/", x -> reply(x, x.getRequestURI().getPath().equals("/echo")
                ? x.getRequestBody().readAllBytes() : "hello over TLS\n".getBytes(StandardCharsets.UTF_8)));
        httpsThreads = Executors.newFixedThreadPool(4);
        https.setExecutor(httpsThreads);
        https.start();
    }

    private static void reply(HttpExchange x, byte[] body) throws IOException {
        x.sendResponseHeaders(200, body.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(body);
        }
    }

    @AfterAll
    static void stopGreenMail() {
        https.stop(0);
        httpsThreads.shutdownNow();
        plain.close();
        tls.close();
        greenMail.stop();
    }

    private static boolean ours(String warning) {
        return warning.contains("flowtest.mail.") || warning.contains("org.apache.commons.net.");
    }

    @Test
    void theConnectorsTlsCarriesCommonsNetSmtpAndPop3WithTheSyncTranscriptAndNoPinStrictAndLenient() throws Exception {
        SocketFactory sockets = tls.socketFactory();
        String expected = new CommonsNetMail(sockets, smtps, pop3s, "sync").call();
        assertTrue(expected.endsWith("body same deleted true true"), expected);
        FlowRuns.assertLikeSyncWithoutPins("connector-tls", PACKAGES, SESSIONS,
                (l, id) -> l.newInstance(Callable.class, CommonsNetMail.class.getName(), sockets, smtps, pop3s, id),
                TlsLibrariesTest::ours, expected, 10);
    }

    @Test
    void tlsLayeredByTheLibraryOverAFlowSocketGivesTheSyncResultSuspendsAndPinsNowhereStrictAndLenient()
            throws Exception {
        SocketFactory sockets = plain.socketFactory();
        String expected = new LayeredTls(sockets, trustingGreenMail, smtps).call();
        assertEquals("220 true true", expected);
        FlowRuns.assertLikeSyncWithoutPins("layered-tls", PACKAGES, SESSIONS,
                (l, id) -> l.newInstance(Callable.class, LayeredTls.class.getName(), sockets, trustingGreenMail, smtps),
                TlsLibrariesTest::ours, expected, 3);
    }

    @Test
    void httpClientLayeringTlsItselfOverFlowSocketsGivesTheSyncResultsSuspendsAndPinsNowhereStrictAndLenient()
            throws Exception {
        SocketFactory sockets = plain.socketFactory();
        InetSocketAddress address = https.getAddress();
        String[] packages = {"flowtest.mail", "org.apache.hc.client5", "org.apache.hc.core5"};
        for (boolean builtinHostCheck : new boolean[] {false, true}) {
            String expected = new HttpsClient5(sockets, trustingGreenMail, address, builtinHostCheck, "sync").call();
            if (builtinHostCheck) {
                // The JDK's message: "No subject alternative names present" (JDK 25 prefixes the alert sent).
                assertTrue(expected.startsWith("SSLHandshakeException: ")
                        && expected.endsWith("No subject alternative names present"), expected);
            } else {
                assertEquals("200 hello over TLS 200 true", expected);
            }
            FlowRuns.assertLikeSyncWithoutPins("https-" + builtinHostCheck, packages, SESSIONS,
                    (l, id) -> l.newInstance(Callable.class, HttpsClient5.class.getName(), sockets, trustingGreenMail,
                            address, builtinHostCheck, id),
                    w -> w.contains("flowtest.mail.") || w.contains("org.apache.hc."), expected, 2);
        }
    }

    @Test
    void commonsNetStartTlsLayeringTlsItselfMidConversationGivesTheSyncResultSuspendsAndPinsNowhere() throws Exception {
        Path store = GreenMailKeys.copy();
        SmtpProtocol protocol = new SmtpProtocol();
        SampleServer sample = SampleServer.start(protocol, LaunchOptions.parse(protocol.settings(), "--port", "0",
                "--mode", "continuation", "--workers", "2", "--keystore", store.toString(),
                "--keystore-password", GreenMailKeys.PASSWORD));
        try {
            InetSocketAddress address = sample.address();
            SocketFactory sockets = plain.socketFactory();
            String expected = new StartTlsCommonsNet(sockets, trustingGreenMail, address, "sync").call();
            assertEquals("220 true true true true true true true", expected);
            FlowRuns.assertLikeSyncWithoutPins("starttls", PACKAGES, SESSIONS,
                    (l, id) -> l.newInstance(Callable.class, StartTlsCommonsNet.class.getName(), sockets,
                            trustingGreenMail, address, id),
                    TlsLibrariesTest::ours, expected, 3);
        } finally {
            sample.close();
            assertTrue(sample.awaitIdle(Duration.ofSeconds(10)), "the sample's sessions ended");
            Files.delete(store);
        }
    }

    /**
     * Jedis with {@code ssl(true)} against the project's RESP sample behind a TLS terminator (a JDK {@code
     * SSLServerSocket} with GreenMail's key, relaying each connection to the sample in plain text).
     */
    @Test
    void jedisLayeringTlsItselfGivesTheSyncResultsAndSuspendsForEveryCommandPinningOnlyInItsConnectingConstructor()
            throws Exception {
        RedisProtocol protocol = new RedisProtocol();
        SampleServer sample = SampleServer.start(protocol, LaunchOptions.parse(protocol.settings(), "--port", "0",
                "--mode", "continuation", "--workers", "2"));
        ExecutorService relays = Executors.newCachedThreadPool();
        try (ServerSocket terminator = serving.getServerSocketFactory().createServerSocket(0, 50,
                InetAddress.getLoopbackAddress())) {
            relays.submit(() -> terminate(terminator, sample.address(), relays));
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", terminator.getLocalPort());
            SocketFactory sockets = plain.socketFactory();
            String expected = new JedisOverTls(sockets, trustingGreenMail, address, "sync").call();
            assertEquals("PONG OK v 12 ERR value is not an integer or out of range OK3[v, null] 2", expected);
            String[] packages = {"flowtest.libraries", "redis.clients.jedis"};
            FlowRuns.Client client = (l, id) -> l.newInstance(Callable.class, JedisOverTls.class.getName(), sockets,
                    trustingGreenMail, address, id);
            // Jedis built with a client configuration connects, and here handshakes, in Connection's constructor,
            // which cannot suspend (with TLS or without): that one site pins; every command after it suspends.
            String constructor = "cannot suspend at redis.clients.jedis.Connection.<init>(Lredis/clients/jedis/"
                    + "JedisSocketFactory;Lredis/clients/jedis/JedisClientConfig;)V";
            FlowRuns.Outcome out = FlowRuns.run("jedis-tls-lenient",
                    ContinuationClassLoader.builder().include(packages).build(), SESSIONS, client,
                    w -> w.contains("flowtest.libraries.") || w.contains("redis.clients."));
            assertEquals(List.of(), out.failures);
            assertEquals(Collections.nCopies(SESSIONS, expected), out.results);
            assertTrue(out.stats.resumed() >= SESSIONS * 5L, "the flows suspended: " + out.stats);
            assertEquals(1, out.pinned.size(), out.pinned.toString());
            assertTrue(out.pinned.get(0).startsWith(constructor), out.pinned.toString());
        } finally {
            relays.shutdownNow();
            sample.close();
            assertTrue(sample.awaitIdle(Duration.ofSeconds(10)), "the sample's sessions ended");
        }
    }

    /** Accepts TLS connections and relays each to {@code to} in plain text, both ways, until either side ends. */
    private static Void terminate(ServerSocket terminator, InetSocketAddress to, ExecutorService relays) {
        while (!terminator.isClosed()) {
            try {
                Socket outside = terminator.accept();
                Socket inside = new Socket(to.getAddress(), to.getPort());
                relays.submit(() -> relay(outside, inside));
                relays.submit(() -> relay(inside, outside));
            } catch (IOException e) {
                return null;
            }
        }
        return null;
    }

    private static Void relay(Socket from, Socket to) {
        try (from; to) {
            from.getInputStream().transferTo(to.getOutputStream());
        } catch (IOException e) {
            // one side ended: closing both ends the other direction too
        }
        return null;
    }
}
