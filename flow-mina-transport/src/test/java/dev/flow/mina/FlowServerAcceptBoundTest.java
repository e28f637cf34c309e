package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.loader.ContinuationClassLoader;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.mina.core.filterchain.IoFilterAdapter;
import org.apache.mina.core.session.IoSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The accept bound: a burst of connections is accepted no faster than sessions start, so that at most
 * {@code maxStartingSessions} sessions are accepted and waiting at once (the rest wait in the kernel's
 * accept queue), and every connection of the burst is served once they start.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class FlowServerAcceptBoundTest {

    private static final int BURST = 600;
    private static final int MAX_STARTING = 50;
    private static final int QUEUED = 200;
    private static final ContinuationClassLoader LOADER = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(true).build();

    private final List<FlowServer> servers = new ArrayList<>();
    private final FlowScheduler scheduler = FlowScheduler.builder().workers(2).name("accept-bound").build();

    @AfterEach
    void closeAll() throws Exception {
        Teardown.closeAll(FlowConnector.builder().build(), servers, scheduler);
    }

    /**
     * The server's only I/O thread is held by the first session's registration while a child JVM opens
     * {@value #BURST} connections: the acceptor stops at {@value #MAX_STARTING} accepted sessions (on
     * the unbounded acceptor, all of them queued on the held I/O thread), then every connection is
     * echoed once the I/O thread goes on.
     */
    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void aBurstOfConnectionsWaitsInTheKernelWhileMaxStartingSessionsAreStarting(ServerMode mode) throws Exception {
        FirstSessionHold hold = new FirstSessionHold(Duration.ofSeconds(60));
        Queue<String> outcomes = new ConcurrentLinkedQueue<>();
        FlowServer server = mode.builder(scheduler)
                .ioProcessors(1)
                .maxStartingSessions(MAX_STARTING)
                .filter("hold-the-io-thread", hold)
                .handler(LOADER, "flowtest.mina.LineEcho", outcomes)
                .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        servers.add(server);
        Process client = burst(((InetSocketAddress) server.localAddress()).getPort(), BURST);
        try (BufferedReader out = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8))) {
            try {
                assertEquals("connected " + BURST, out.readLine(), "the client's connects");
                Conditions.await("the acceptor to reach the bound", () -> server.startingSessions() >= MAX_STARTING,
                        Duration.ofSeconds(10), () -> "(starting " + server.startingSessions() + ")");
                assertEquals(MAX_STARTING, server.startingSessionsPeak(), "most sessions accepted and waiting at once");
            } finally {
                hold.release();
            }
            assertEquals("echoed " + BURST, out.readLine(), "the client's echoes");
        } finally {
            if (!client.waitFor(30, TimeUnit.SECONDS)) {
                client.destroyForcibly().waitFor();
            }
        }
        Conditions.await("every session to end", () -> server.stats().completed() == BURST, Duration.ofSeconds(30),
                () -> server.stats().toString());
        assertTrue(server.startingSessionsPeak() <= MAX_STARTING, "peak " + server.startingSessionsPeak());
        assertEquals(0, server.startingSessions());
    }

    /**
     * An established session's request is read before the I/O thread does more for new sessions: its
     * only I/O thread is held by one new session's registration while a child JVM opens {@value #QUEUED}
     * more connections (each sends a line) and the established session sends a line. Once released, the
     * held turn registers the rest of its budget ({@link FlowNioProcessors#NEW_SESSIONS_PER_TURN} new
     * sessions; MINA's loop registered all of them), and the next turn, which finds the established
     * session readable, reads it before it registers more new sessions or reads those registered (their
     * lines are ready too). Every session is served afterwards.
     */
    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void anEstablishedSessionsRequestIsReadBeforeTheTurnRegistersOrReadsNewSessions(ServerMode mode) throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger created = new AtomicInteger();
        AtomicInteger opened = new AtomicInteger();
        AtomicInteger openedAtRequest = new AtomicInteger(-1);
        AtomicInteger newReads = new AtomicInteger();
        AtomicInteger newReadsAtRequest = new AtomicInteger(-1);
        AtomicBoolean greeted = new AtomicBoolean();
        Queue<String> outcomes = new ConcurrentLinkedQueue<>();
        FlowServer server = mode.builder(scheduler)
                .ioProcessors(1)
                .maxStartingSessions(10 * QUEUED)
                .filter("order", new IoFilterAdapter() {
                    @Override
                    public void sessionCreated(NextFilter next, IoSession session) throws Exception {
                        int n = created.incrementAndGet();
                        session.setAttribute("n", n);
                        if (n == 2) {
                            held.countDown();
                            if (!release.await(60, TimeUnit.SECONDS)) {
                                throw new IllegalStateException("not released within 60 s");
                            }
                        }
                        next.sessionCreated(session);
                    }

                    @Override
                    public void sessionOpened(NextFilter next, IoSession session) throws Exception {
                        opened.incrementAndGet();
                        next.sessionOpened(session);
                    }

                    @Override
                    public void messageReceived(NextFilter next, IoSession session, Object message) throws Exception {
                        // the established session's second line, after its greeting
                        if (!Integer.valueOf(1).equals(session.getAttribute("n"))) {
                            newReads.incrementAndGet();
                        } else if (greeted.getAndSet(true)) {
                            openedAtRequest.compareAndSet(-1, opened.get());
                            newReadsAtRequest.compareAndSet(-1, newReads.get());
                        }
                        next.messageReceived(session, message);
                    }
                })
                .handler(LOADER, "flowtest.mina.LineEcho", outcomes)
                .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        servers.add(server);
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        try (Socket established = new Socket(Pairs.LOOPBACK, port); Socket holder = new Socket()) {
            established.setSoTimeout(30_000);
            OutputStream out = established.getOutputStream();
            BufferedReader in = new BufferedReader(new InputStreamReader(established.getInputStream(), StandardCharsets.US_ASCII));
            out.write("hello\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertEquals("hello", in.readLine(), "the established session's first echo");
            holder.connect(new InetSocketAddress(Pairs.LOOPBACK, port), 10_000);
            assertTrue(held.await(10, TimeUnit.SECONDS), "the I/O thread held by the second session");
            Process client = burst(port, QUEUED);
            try (BufferedReader burstOut = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8))) {
                try {
                    assertEquals("connected " + QUEUED, burstOut.readLine(), "the client's connects");
                    Conditions.await("every connection to be accepted and queued", () -> server.startingSessions() >= QUEUED + 1,
                            Duration.ofSeconds(10), () -> "(starting " + server.startingSessions() + ")");
                    out.write("request\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } finally {
                    release.countDown();
                }
                assertEquals("request", in.readLine(), "the established session's answer");
                assertEquals(0, newReadsAtRequest.get(), "new sessions' lines read before the established session's request");
                int before = openedAtRequest.get();
                assertTrue(before >= 2 && before <= 1 + FlowNioProcessors.NEW_SESSIONS_PER_TURN,
                        "sessions opened when the established session's request was read: " + before + " (expected: 2.."
                                + (1 + FlowNioProcessors.NEW_SESSIONS_PER_TURN) + ", the held turn's; "
                                + (1 + 2 * FlowNioProcessors.NEW_SESSIONS_PER_TURN) + " if the next turn registered first, "
                                + (QUEUED + 2) + " if all queued went first)");
                assertEquals("echoed " + QUEUED, burstOut.readLine(), "the client's echoes");
            } finally {
                if (!client.waitFor(30, TimeUnit.SECONDS)) {
                    client.destroyForcibly().waitFor();
                }
            }
        }
        Conditions.await("every session to end", () -> server.stats().completed() == QUEUED + 2, Duration.ofSeconds(30),
                () -> server.stats().toString());
        assertEquals(0, server.startingSessions());
    }

    @Test
    void maxStartingSessionsMustBePositive() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FlowServer.builder().maxStartingSessions(0));
        assertEquals("maxStartingSessions: 0 (expected: > 0)", e.getMessage());
    }

    private static Process burst(int port, int count) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                ConnectBurstProcess.class.getName(), String.valueOf(port), String.valueOf(count))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
