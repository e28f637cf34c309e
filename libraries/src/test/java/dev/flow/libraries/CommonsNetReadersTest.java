package dev.flow.libraries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.SuspendPolicy;
import dev.flow.internal.Pins;
import dev.flow.loader.ContinuationClassLoader;
import dev.flow.mina.FlowConnector;
import flowtest.net.CommonsNetDialogue;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Commons Net's readers and writers ({@code CRLFLineReader}, {@code DotTerminatedMessageReader},
 * {@code BufferedWriter} over {@code OutputStreamWriter}, as its SMTP and POP3 clients build them)
 * over a Flow transport against a scripted server on 127.0.0.1: loaded through the loader, strict and
 * lenient, the dialogue gives the sync transcript, really suspends and reports no pinned site.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CommonsNetReadersTest {

    private static final int SESSIONS = 5;

    private ServerSocket server;
    private Thread serving;
    private FlowConnector connector;
    /**
     * When the scripted server may send its next reply: always for the sync run; for the flows, once a flow
     * is suspended, so a read finds its reply missing and waits however slowly a cold loader lets the flow
     * reach it (polled every millisecond, up to 5 s, then sent anyway).
     */
    private volatile BooleanSupplier replyGate = () -> true;

    @BeforeAll
    void startServer() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        serving = new Thread(this::serve, "scripted-smtp");
        serving.setDaemon(true);
        serving.start();
        connector = FlowConnector.create();
    }

    @AfterAll
    void stopServer() throws Exception {
        connector.close();
        server.close();
        serving.join(10_000);
    }

    private void serve() {
        for (int i = 0; i < SESSIONS; i++) {
            try (Socket s = server.accept()) {
                s.setSoTimeout(10_000);
                OutputStream out = s.getOutputStream();
                BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                send(out, "220 ready\r\n");
                for (String command = in.readLine(); command != null; command = in.readLine()) {
                    if (command.startsWith("EHLO")) {
                        send(out, "250-hello " + command.substring(5) + "\r\n250-SIZE 100\r\n250 OK\r\n");
                    } else if (command.startsWith("RETR")) {
                        send(out, "+OK 3 lines\r\nfirst\r\n..dotted\r\n\r\nlast\r\n.\r\n");
                    } else if (command.equals("QUIT")) {
                        send(out, "221 bye\r\n");
                        break;
                    } else {
                        send(out, "250 OK\r\n");
                    }
                }
            } catch (IOException e) {
                return;
            }
        }
    }

    private void send(OutputStream out, String text) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!replyGate.getAsBoolean() && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Test
    void commonsNetReadersAndWritersSuspendWithTheSyncTranscriptAndNoPinnedSite() throws Exception {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
        String expected = String.valueOf(new CommonsNetDialogue(connector.connector(address)).call());
        assertTrue(expected.endsWith("[221 bye]"), expected);
        List<String> before = Pins.warnings();
        try (FlowScheduler scheduler = FlowScheduler.builder().workers(2).policy(SuspendPolicy.immediately()).build()) {
            replyGate = () -> scheduler.stats().suspended() > 0;
            for (boolean strict : new boolean[] {true, false}) {
                ContinuationClassLoader loader = ContinuationClassLoader.builder()
                        .include("flowtest.net", "org.apache.commons.net").strict(strict).build();
                FlowStats was = scheduler.stats();
                Object actual = scheduler.submit(loader.newInstance(Callable.class, "flowtest.net.CommonsNetDialogue",
                        connector.connector(address))).get(Duration.ofSeconds(20));
                assertEquals(expected, actual, strict ? "strict" : "lenient");
                assertTrue(scheduler.stats().resumed() > was.resumed(), "the dialogue suspended");
            }
        }
        replyGate = () -> true;
        List<String> pinned = new ArrayList<>(Pins.warnings());
        pinned.removeAll(before);
        assertEquals(List.of(), pinned, "pinned sites");
    }
}
