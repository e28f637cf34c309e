package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.loader.ContinuationClassLoader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.mina.core.filterchain.IoFilterAdapter;
import org.apache.mina.core.session.IoSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link FlowServer#close(Duration)}: stops accepting at once, answers the requests in flight, ends the
 * sessions waiting between requests at once, and closes what is left when the grace period expires.
 * In each mode.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FlowServerGracefulCloseTest {

    private static final int IN_FLIGHT = 20;
    private static final ContinuationClassLoader LOADER = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(true).build();

    private final Queue<String> outcomes = new ConcurrentLinkedQueue<>();
    private final List<FlowServer> servers = new ArrayList<>();
    private final List<Socket> sockets = new ArrayList<>();
    private final FlowScheduler scheduler = FlowScheduler.builder().workers(2).name("graceful-close").build();

    @AfterEach
    void closeAll() throws Exception {
        for (Socket s : sockets) {
            s.close();
        }
        Teardown.closeAll(FlowConnector.builder().build(), servers, scheduler);
    }

    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void closeWithGraceAnswersTheRequestsInFlightAndEndsIdleSessionsAtOnce(ServerMode mode) throws Exception {
        FlowServer server = start(mode);
        List<BufferedReader> busy = new ArrayList<>();
        for (int i = 0; i < IN_FLIGHT; i++) {
            busy.add(send(server, "sleep 700\nx: 1\n\n"));
        }
        BufferedReader idle = send(server, "");
        BufferedReader served = send(server, "hello\n\n");
        assertEquals("done 2", served.readLine());
        Conditions.await("every request to be read", () -> running(server) == IN_FLIGHT + 2
                && count("head") == IN_FLIGHT + 1 && count("sleeping") == IN_FLIGHT, () -> server.stats() + " " + outcomes);

        long t0 = System.nanoTime();
        boolean clean = server.close(Duration.ofSeconds(20));
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

        assertTrue(clean, "every session ended within the grace: " + server.stats());
        // counted by the time close(grace) returns clean, though a session closes before its handler's end is counted
        assertEquals(IN_FLIGHT + 2, server.stats().completed(), server.stats().toString());
        assertEquals(0, server.stats().running(), server.stats().toString());
        assertTrue(ms < 10_000, "closed after " + ms + " ms (the requests take 700 ms)");
        for (BufferedReader in : busy) {
            assertEquals("done 3", in.readLine(), "the request in flight is answered");
            assertNull(in.readLine(), "then the session ends");
        }
        assertNull(idle.readLine(), "an idle session ends");
        assertNull(served.readLine(), "a session between requests ends");
        assertEquals(IN_FLIGHT + 2, count("eof"), outcomes.toString());
        assertThrows(ConnectException.class, () -> connect(server), "no longer accepting");
    }

    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void closeWithGraceClosesWhatIsLeftWhenTheGraceExpires(ServerMode mode) throws Exception {
        FlowServer server = start(mode);
        BufferedReader slow = send(server, "sleep 2000\n\n");
        BufferedReader partial = send(server, "x: 1\n");
        Conditions.await("both requests to be read", () -> count("head") == 2 && count("sleeping") == 1,
                () -> server.stats() + " " + outcomes);

        long t0 = System.nanoTime();
        boolean clean = server.close(Duration.ofMillis(300));
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

        assertFalse(clean, "two sessions had to be closed: " + server.stats());
        // The missing answer shows that close did not wait for the 2 s request; the upper bound only
        // catches a stop that hangs, with room for a loaded machine.
        assertTrue(ms >= 290 && ms < 10_000, "closed after " + ms + " ms (grace 300 ms, request 2000 ms)");
        assertNull(slow.readLine(), "the session still working is closed without an answer");
        assertNull(partial.readLine(), "the session inside a request is closed");
        Conditions.await("both sessions to count as stopped", () -> server.stats().stopped() == 2,
                Duration.ofSeconds(10), () -> server.stats() + " " + outcomes);
    }

    /**
     * A session closes just before its handler's end is counted; a filter stretches that moment here (it
     * holds the closing thread until the session has left the server and close(grace) has returned, 1 s at
     * most). close(grace) returned clean as soon as no session was open, in continuation mode with
     * running=1, completed=0 (a .ci/run saw running=1, completed 21 of 22 right after a clean close).
     * Not with IO_THREADS: there the closing thread is the I/O thread that must close the session.
     */
    @ParameterizedTest
    @EnumSource(value = ServerMode.class, names = {"SYNC", "WORKERS"})
    void closeWithGraceReturnsOnlyOnceEveryHandlersEndIsCounted(ServerMode mode) throws Exception {
        AtomicReference<FlowServer> started = new AtomicReference<>();
        CountDownLatch closeReturned = new CountDownLatch(1);
        AtomicBoolean held = new AtomicBoolean();
        IoFilterAdapter slowClose = new IoFilterAdapter() {
            @Override
            public void filterClose(NextFilter next, IoSession session) throws Exception {
                next.filterClose(session);
                if (held.compareAndSet(false, true)) {
                    Conditions.await("the session to leave the server", () -> started.get().openSessions() == 0);
                    closeReturned.await(1, TimeUnit.SECONDS);
                }
            }
        };
        FlowServer server = mode.builder(scheduler)
                .handler(LOADER, "flowtest.mina.HeadServer", outcomes)
                .filter("slow-close", slowClose)
                .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        started.set(server);
        servers.add(server);
        assertEquals("done 2", send(server, "hello\n\n").readLine());

        boolean clean = server.close(Duration.ofSeconds(20));
        SessionStats after = server.stats();
        closeReturned.countDown();

        assertTrue(clean, after.toString());
        assertTrue(held.get(), "the filter held the close");
        assertEquals(1, after.completed(), after.toString());
        assertEquals(0, after.running(), after.toString());
    }

    @Test
    void closeWithoutGraceKeepsItsMeaning() throws Exception {
        FlowServer server = start(ServerMode.WORKERS);
        BufferedReader slow = send(server, "sleep 2000\n\n");
        Conditions.await("the request to be read", () -> count("sleeping") == 1, () -> outcomes.toString());
        assertFalse(server.close(Duration.ZERO));
        assertNull(slow.readLine());
        assertFalse(server.close(Duration.ofSeconds(1)), "a second call does nothing");
        assertThrows(IllegalArgumentException.class, () -> start(ServerMode.SYNC).close(Duration.ofMillis(-1)));
    }

    private FlowServer start(ServerMode mode) throws IOException {
        FlowServer server = mode.builder(scheduler)
                .handler(LOADER, "flowtest.mina.HeadServer", outcomes)
                .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        servers.add(server);
        return server;
    }

    private BufferedReader send(FlowServer server, String text) throws IOException {
        Socket s = connect(server);
        sockets.add(s);
        s.setSoTimeout(10_000);
        s.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
    }

    private static Socket connect(FlowServer server) throws IOException {
        Socket s = new Socket();
        try {
            s.connect(server.localAddress(), 5_000);
        } catch (IOException e) {
            s.close();
            throw e;
        }
        return s;
    }

    private static long running(FlowServer server) {
        return server.stats().running();
    }

    private long count(String outcome) {
        return outcomes.stream().filter(outcome::equals).count();
    }
}
