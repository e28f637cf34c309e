package dev.flow.libraries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.icegreen.greenmail.configuration.GreenMailConfiguration;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import dev.flow.loader.ContinuationClassLoader;
import dev.flow.mina.FlowConnector;
import flowtest.mail.CommonsNetMail;
import flowtest.mail.LayeredTls;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.security.KeyStore;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javax.net.SocketFactory;
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

    @BeforeAll
    static void startGreenMail() throws Exception {
        greenMail = new GreenMail(new ServerSetup[] {new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTPS),
                new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_POP3S)})
                .withConfiguration(GreenMailConfiguration.aConfig().withDisabledAuthentication());
        greenMail.start();
        smtps = new InetSocketAddress("127.0.0.1", greenMail.getSmtps().getPort());
        pop3s = new InetSocketAddress("127.0.0.1", greenMail.getPop3s().getPort());
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = GreenMail.class.getClassLoader().getResourceAsStream("greenmail.p12")) {
            keys.load(in, "changeit".toCharArray());
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(keys);
        trustingGreenMail = SSLContext.getInstance("TLS");
        trustingGreenMail.init(null, trust.getTrustManagers(), null);
        plain = FlowConnector.builder().ioProcessors(1).build();
        tls = FlowConnector.builder().ioProcessors(1).tls(trustingGreenMail).build();
    }

    @AfterAll
    static void stopGreenMail() {
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
        for (boolean strict : new boolean[] {false, true}) {
            FlowRuns.Outcome out = FlowRuns.run("connector-tls-" + (strict ? "strict" : "lenient"),
                    ContinuationClassLoader.builder().include(PACKAGES).strict(strict).build(), SESSIONS,
                    (l, id) -> l.newInstance(Callable.class, CommonsNetMail.class.getName(), sockets, smtps, pop3s, id),
                    TlsLibrariesTest::ours);
            assertEquals(List.of(), out.failures);
            assertEquals(Collections.nCopies(SESSIONS, expected), out.results);
            assertTrue(out.stats.resumed() >= SESSIONS * 10L, "the flows suspended: " + out.stats);
            assertEquals(List.of(), out.pinned, "pinned sites");
        }
    }

    @Test
    void tlsLayeredByTheLibraryOverAFlowSocketGivesTheSyncResultSuspendsAndPinsNowhereStrictAndLenient()
            throws Exception {
        SocketFactory sockets = plain.socketFactory();
        String expected = new LayeredTls(sockets, trustingGreenMail, smtps).call();
        assertEquals("220 true true", expected);
        for (boolean strict : new boolean[] {false, true}) {
            FlowRuns.Outcome out = FlowRuns.run("layered-tls-" + (strict ? "strict" : "lenient"),
                    ContinuationClassLoader.builder().include(PACKAGES).strict(strict).build(), SESSIONS,
                    (l, id) -> l.newInstance(Callable.class, LayeredTls.class.getName(), sockets, trustingGreenMail, smtps),
                    TlsLibrariesTest::ours);
            assertEquals(List.of(), out.failures);
            assertEquals(Collections.nCopies(SESSIONS, expected), out.results);
            assertTrue(out.stats.resumed() >= SESSIONS * 3L, "the flows suspended: " + out.stats);
            assertEquals(List.of(), out.pinned, "pinned sites");
        }
    }
}
