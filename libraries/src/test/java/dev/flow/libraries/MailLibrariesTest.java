package dev.flow.libraries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.icegreen.greenmail.configuration.GreenMailConfiguration;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.UnsuspendableFrameException;
import dev.flow.loader.ContinuationClassLoader;
import dev.flow.mina.FlowConnector;
import dev.flow.samples.launcher.LaunchOptions;
import dev.flow.samples.launcher.SampleServer;
import dev.flow.samples.smtp.SmtpProtocol;
import flowtest.mail.CommonsNetMail;
import flowtest.mail.JakartaMail;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import javax.net.SocketFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Unmodified mail libraries against GreenMail's SMTP and POP3 servers on 127.0.0.1, their sockets from Flow's
 * socket factory: loaded normally on a plain thread (sync), and through a lenient and a strict {@code
 * ContinuationClassLoader} as concurrent flows on two workers. Each session sends a message to a mailbox of
 * its own and reads it back; every mode gives the same transcript. Commons Net's SMTP client also sends to the
 * project's SMTP sample.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MailLibrariesTest {

    private static final int SESSIONS = 20;
    private static final String COMMONS_NET_TRANSCRIPT = "smtp: 220 truetruetrue true250 true pop3: true status 1true"
            + " listed 1 1 subject true body same deleted true true";

    private static GreenMail greenMail;
    private static FlowConnector connector;
    private static InetSocketAddress smtp;
    private static InetSocketAddress pop3;

    @BeforeAll
    static void startGreenMail() {
        greenMail = new GreenMail(new ServerSetup[] {new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP),
                new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_POP3)})
                .withConfiguration(GreenMailConfiguration.aConfig().withDisabledAuthentication());
        greenMail.start();
        smtp = new InetSocketAddress("127.0.0.1", greenMail.getSmtp().getPort());
        pop3 = new InetSocketAddress("127.0.0.1", greenMail.getPop3().getPort());
        connector = FlowConnector.builder().ioProcessors(1).build();
    }

    @AfterAll
    static void stopGreenMail() {
        connector.close();
        greenMail.stop();
    }

    private static boolean names(String warning, String... packages) {
        for (String p : packages) {
            if (warning.contains(p + ".")) {
                return true;
            }
        }
        return false;
    }

    /**
     * With Flow's factory given, and with none: Commons Net's default, {@code SocketFactory.getDefault()} in its own
     * static initializer, the JDK's loaded normally and Flow's when loaded.
     */
    @ParameterizedTest(name = "factory given: {0}")
    @ValueSource(booleans = {true, false})
    void commonsNetSmtpAndPop3ClientsGiveTheSyncTranscriptAsFlowsStrictAndLenientAndSuspendWithoutPinning(boolean given)
            throws Exception {
        SocketFactory sockets = given ? connector.socketFactory() : null;
        assertEquals(COMMONS_NET_TRANSCRIPT, new CommonsNetMail(sockets, smtp, pop3, "sync").call());
        String[] packages = {"flowtest.mail", "org.apache.commons.net"};
        for (boolean strict : new boolean[] {false, true}) {
            ContinuationClassLoader loader = ContinuationClassLoader.builder().include(packages).strict(strict).build();
            FlowRuns.Outcome out = FlowRuns.run("commons-net-" + (strict ? "strict" : "lenient"), loader, SESSIONS,
                    (l, id) -> l.newInstance(Callable.class, CommonsNetMail.class.getName(), sockets, smtp, pop3, id),
                    w -> names(w, packages));
            assertEquals(List.of(), out.failures);
            assertEquals(Collections.nCopies(SESSIONS, COMMONS_NET_TRANSCRIPT), out.results);
            assertTrue(out.stats.resumed() >= SESSIONS * 10L, "the flows suspended: " + out.stats);
            assertEquals(List.of(), out.pinned, "pinned sites");
        }
    }

    @Test
    void commonsNetSmtpClientSendsToTheProjectsSmtpSampleAsFlowsStrictAndLenientWithoutPinning() throws Exception {
        SmtpProtocol protocol = new SmtpProtocol();
        SampleServer sample = SampleServer.start(protocol, LaunchOptions.parse(protocol.settings(), "--port", "0",
                "--mode", "continuation", "--workers", "2"));
        try {
            InetSocketAddress address = sample.address();
            SocketFactory sockets = connector.socketFactory();
            String expected = "smtp: 220 truetruetrue true250 true";
            assertEquals(expected, new CommonsNetMail(sockets, address, null, "sync").call());
            String[] packages = {"flowtest.mail", "org.apache.commons.net"};
            for (boolean strict : new boolean[] {false, true}) {
                FlowRuns.Outcome out = FlowRuns.run("commons-net-sample-" + (strict ? "strict" : "lenient"),
                        ContinuationClassLoader.builder().include(packages).strict(strict).build(), SESSIONS,
                        (l, id) -> l.newInstance(Callable.class, CommonsNetMail.class.getName(), sockets, address,
                                null, id),
                        w -> names(w, packages));
                assertEquals(List.of(), out.failures);
                assertEquals(Collections.nCopies(SESSIONS, expected), out.results);
                // How often a flow suspends depends on whether a reply has already arrived when it reads; the
                // gated test below makes each reply arrive late and counts a suspension per reply.
                assertTrue(out.stats.resumed() >= SESSIONS, "the flows suspended: " + out.stats);
                assertEquals(List.of(), out.pinned, "pinned sites");
            }
        } finally {
            sample.close();
            assertTrue(sample.awaitIdle(Duration.ofSeconds(10)), "the sample's sessions ended");
        }
    }

    /**
     * Whether a flow suspends on a read depends on whether the reply has already arrived; a relay that passes each
     * reply chunk on only once the one flow is suspended, after a resumption since the last chunk, makes every
     * read find nothing and wait. A read that blocked its worker instead would never be counted as suspended,
     * and the relay would give up.
     */
    @Test
    void commonsNetSmtpClientSuspendsForEveryReplyOfTheProjectsSmtpSampleThatHasNotArrived() throws Exception {
        SmtpProtocol protocol = new SmtpProtocol();
        SampleServer sample = SampleServer.start(protocol, LaunchOptions.parse(protocol.settings(), "--port", "0",
                "--mode", "continuation", "--workers", "2"));
        AtomicReference<FlowScheduler> scheduler = new AtomicReference<>();
        long[] resumedAtLastChunk = {-1};
        BooleanSupplier flowWaits = () -> {
            FlowScheduler s = scheduler.get();
            if (s == null) {
                return false;
            }
            FlowStats stats = s.stats();
            if (stats.suspended() != 1 || stats.resumed() <= resumedAtLastChunk[0]) {
                return false;
            }
            resumedAtLastChunk[0] = stats.resumed();
            return true;
        };
        try (GatedRelay relay = new GatedRelay(sample.address(), flowWaits, Duration.ofSeconds(9))) {
            SocketFactory sockets = connector.socketFactory();
            String[] packages = {"flowtest.mail", "org.apache.commons.net"};
            FlowRuns.Outcome out = FlowRuns.run("commons-net-gated",
                    ContinuationClassLoader.builder().include(packages).strict(true).build(), 1,
                    (l, id) -> l.newInstance(Callable.class, CommonsNetMail.class.getName(), sockets, relay.address(),
                            null, id),
                    w -> names(w, packages), scheduler::set);
            assertEquals(null, relay.failure(), "the relay");
            assertEquals(List.of(), out.failures);
            assertEquals(List.of("smtp: 220 truetruetrue true250 true"), out.results);
            assertTrue(relay.forwarded() >= 7, "reply chunks, one per command and the greeting: " + relay.forwarded());
            assertTrue(out.stats.resumed() >= relay.forwarded(),
                    "a resumption per reply chunk: " + relay.forwarded() + " chunks, " + out.stats);
            assertEquals(List.of(), out.pinned, "pinned sites");
        } finally {
            sample.close();
            assertTrue(sample.awaitIdle(Duration.ofSeconds(10)), "the sample's sessions ended");
        }
    }

    /**
     * Jakarta Mail takes FlowSocketFactory by class name and gives the sync results as lenient flows, but its
     * protocol methods are {@code synchronized} (SMTPTransport, POP3's Protocol), its POP3 connection opens in a
     * constructor, and it reads through the JDK's {@code BufferedInputStream}: every wait pins, each site
     * reported once, and a strict loader refuses the first ({@code SMTPTransport.protocolConnect}). Its EHLO name
     * and its default sender come from {@code InetAddress.getLocalHost()}, a name lookup, which suspends: it pins
     * only where a synchronized method calls it ({@code SMTPTransport.getLocalHost}, {@code
     * MimeMessage.updateHeaders}), as the other waits do.
     */
    @Test
    void jakartaMailByFactoryClassNameGivesTheSyncResultsButPinsInItsSynchronizedMethodsAndStrictRefusesTheFirstSite()
            throws Exception {
        String factory = "dev.flow.mina.FlowSocketFactory";
        String expected = new JakartaMail(factory, smtp, pop3, "sync").call();
        assertEquals("smtp: true pop3: count 1 subject true body same", expected);
        String[] packages = {"flowtest.mail", "jakarta.mail", "org.eclipse.angus", "jakarta.activation"};
        FlowRuns.Client client = (l, id) -> l.newInstance(Callable.class, JakartaMail.class.getName(), factory, smtp,
                pop3, id);

        FlowRuns.Outcome lenient = FlowRuns.run("jakarta-mail-lenient",
                ContinuationClassLoader.builder().include(packages).build(), SESSIONS, client, w -> names(w, packages));
        assertEquals(List.of(), lenient.failures);
        assertEquals(Collections.nCopies(SESSIONS, expected), lenient.results);
        // Pins are reported only for Flow's sockets: with the JDK's (FlowSocketFactory.getDefault() was
        // SocketFactory's before) the flows blocked their workers silently.
        assertTrue(lenient.pinned.stream().anyMatch(w -> w.contains("SMTPTransport.protocolConnect")), lenient.pinned.toString());
        for (String w : lenient.pinned) {
            boolean mail = w.startsWith("cannot suspend at org.eclipse.angus.mail.") || w.startsWith("cannot suspend at jakarta.mail.");
            assertTrue(mail && (w.contains("a synchronized method") || w.contains("constructors cannot")
                    || w.contains("called back through an uninstrumented frame")), w);
        }

        FlowRuns.Outcome strict = FlowRuns.run("jakarta-mail-strict",
                ContinuationClassLoader.builder().include(packages).strict(true).build(), SESSIONS, client,
                w -> names(w, packages));
        assertEquals(SESSIONS, strict.failures.size(), strict.toString());
        for (Throwable t : strict.failures) {
            Throwable refusal = t;
            while (refusal != null && !(refusal instanceof UnsuspendableFrameException)) {
                refusal = refusal.getCause();
            }
            assertTrue(refusal != null && refusal.getMessage().startsWith("cannot suspend at "
                    + "org.eclipse.angus.mail.smtp.SMTPTransport.protocolConnect("), String.valueOf(t));
        }
    }
}
