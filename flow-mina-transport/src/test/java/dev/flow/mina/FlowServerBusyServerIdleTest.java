package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.TransportConfig;
import dev.flow.loader.ContinuationClassLoader;
import flowtest.mina.StallingEcho;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link TransportConfig#idleTimeout()} measures the peer, not the server (#14): a session whose
 * request waits for a busy server (its only worker, or its I/O thread, held longer than the idle
 * timeout, as by a cold class load) is answered, not closed as idle, and so is a session whose handler,
 * having read its request, is busy for longer than the idle timeout; a peer that goes silent, or stops
 * reading the answers, is still closed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FlowServerBusyServerIdleTest {

    private static final ContinuationClassLoader LOADER = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(true).build();
    private static final Duration IDLE = Duration.ofSeconds(1);
    /** How long the handler holds its thread: three idle timeouts. */
    private static final long HOLD_MILLIS = 3_000;

    private final Queue<String> outcomes = new ConcurrentLinkedQueue<>();
    private final List<FlowServer> servers = new ArrayList<>();
    private final FlowScheduler scheduler = FlowScheduler.builder().workers(1).name("busy-idle").build();
    private final CountDownLatch held = new CountDownLatch(1);

    @AfterEach
    void closeAll() throws Exception {
        Teardown.closeAll(FlowConnector.builder().build(), servers, scheduler);
    }

    @Test
    void aRequestWaitingForTheOnlyWorkerIsAnsweredNotClosedAsIdle() throws Exception {
        FlowServer server = start(FlowServer.builder().scheduler(scheduler).dispatch(Dispatch.WORKERS), true);
        try (Socket a = connect(server); Socket b = connect(server)) {
            send(a, "a");
            // a's flow holds the only worker before its first read, as a cold handler class load does
            assertTrue(held.await(10, TimeUnit.SECONDS), "the first flow holds the worker");
            send(b, "b");
            assertEquals("a", reader(a).readLine(), "a's answer after the hold");
            assertEquals("b", reader(b).readLine(), "b's answer after the hold");
        }
        awaitEnded(server, 2, () -> server.stats().completed() == 2);
        assertEquals(0, server.stats().timedOut(), server.stats().toString());
    }

    @Test
    void aRequestWaitingInTheSocketWhileItsIoThreadIsHeldIsAnsweredNotClosedAsIdle() throws Exception {
        FlowServer server = start(FlowServer.builder().scheduler(scheduler).dispatch(Dispatch.IO_THREADS)
                .ioProcessors(1), false);
        try (Socket a = connect(server); Socket b = connect(server)) {
            BufferedReader ra = reader(a);
            BufferedReader rb = reader(b);
            // Both flows wait for input: the next line of each is read, and its flow resumed, on the one I/O thread.
            send(a, "hello");
            assertEquals("hello", ra.readLine());
            send(b, "hello");
            assertEquals("hello", rb.readLine());
            send(a, "stall");
            assertTrue(held.await(10, TimeUnit.SECONDS), "a's flow holds the I/O thread");
            send(b, "b");
            assertEquals("stall", ra.readLine(), "a's answer after the hold");
            assertEquals("b", rb.readLine(), "b's answer, its line read after the hold");
        }
        awaitEnded(server, 2, () -> server.stats().completed() == 2);
        assertEquals(0, server.stats().timedOut(), server.stats().toString());
    }

    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void aHandlerBusyLongerThanTheIdleTimeoutAfterReadingItsRequestIsAnsweredNotClosedAsIdle(ServerMode mode)
            throws Exception {
        FlowServer server = start(mode.builder(scheduler), false);
        try (Socket a = connect(server)) {
            BufferedReader ra = reader(a);
            send(a, "hello");
            assertEquals("hello", ra.readLine());
            // The handler has read its request and sleeps three idle timeouts: the server, not the peer, is busy.
            send(a, "sleep");
            assertEquals("sleep", ra.readLine(), "the answer after the handler's sleep of " + StallingEcho.SLEEP);
        }
        awaitEnded(server, 1, () -> server.stats().completed() == 1);
        assertEquals(0, server.stats().timedOut(), server.stats().toString());
    }

    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void aPeerSilentAfterHalfALineIsStillClosedByTheIdleTimeout(ServerMode mode) throws Exception {
        FlowServer server = start(mode.builder(scheduler), false);
        try (Socket a = connect(server)) {
            OutputStream out = a.getOutputStream();
            out.write("half a li".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            long t0 = System.nanoTime();
            assertEquals(-1, a.getInputStream().read(), "the server closes the silent peer's connection");
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertTrue(ms < 5_000, "closed after " + ms + " ms (idleTimeout 1000 ms)");
        }
        awaitEnded(server, 1, () -> server.stats().timedOut() == 1);
        assertEquals(0, server.stats().completed(), server.stats().toString());
        assertTrue(outcomes.peek().contains("(idleTimeout)"), outcomes.toString());
    }

    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void aPeerThatStopsReadingIsStillClosedByTheIdleTimeoutThoughItsInputWaits(ServerMode mode) throws Exception {
        FlowServer server = start(mode.builder(scheduler), false);
        try (SocketChannel a = SocketChannel.open(server.localAddress())) {
            a.configureBlocking(false);
            // Lines until nothing more is taken for 500 ms (at most 32 MiB, 20 s): the handler's echo
            // waits for the peer to read, and the lines it has not read wait behind it.
            ByteBuffer lines = ByteBuffer.wrap(("x".repeat(1023) + "\n").repeat(64).getBytes(StandardCharsets.US_ASCII));
            long sent = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            long lastProgress = System.nanoTime();
            while (sent < 32L << 20 && System.nanoTime() - deadline < 0
                    && System.nanoTime() - lastProgress < TimeUnit.MILLISECONDS.toNanos(500)) {
                if (!lines.hasRemaining()) {
                    lines.rewind();
                }
                int n = a.write(lines);
                if (n > 0) {
                    sent += n;
                    lastProgress = System.nanoTime();
                } else {
                    LockSupport.parkNanos(1_000_000);
                }
            }
            assertTrue(sent < 32L << 20, "the server took all " + sent + " bytes without the peer reading");
            Conditions.await("the silent peer's session to time out", () -> server.stats().timedOut() == 1,
                    () -> server.stats().toString());
        }
        awaitEnded(server, 1, () -> server.stats().timedOut() == 1);
        assertTrue(outcomes.peek().contains("(idleTimeout)"), outcomes.toString());
    }

    private FlowServer start(FlowServer.Builder builder, boolean holdAtStart) throws IOException {
        FlowServer server = builder.config(TransportConfig.builder().idleTimeout(IDLE).build())
                .handler(LOADER, "flowtest.mina.StallingEcho", new AtomicBoolean(holdAtStart), (Runnable) this::hold,
                        outcomes)
                .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        servers.add(server);
        return server;
    }

    /** Holds the calling thread for {@link #HOLD_MILLIS}, as a cold class load does; counts {@link #held} down. */
    private void hold() {
        held.countDown();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(HOLD_MILLIS);
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    /** Waits for {@code sessions} handlers to report how they ended and for the server to count them. */
    private void awaitEnded(FlowServer server, int sessions, BooleanSupplier counted) {
        Conditions.await("the handlers to end and be counted", () -> outcomes.size() == sessions
                && counted.getAsBoolean(), () -> outcomes + " " + server.stats());
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
}
