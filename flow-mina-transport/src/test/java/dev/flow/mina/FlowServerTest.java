package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.LineTooLongException;
import dev.flow.SuspendPolicy;
import dev.flow.Transport;
import dev.flow.TransportConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.mina.transport.vmpipe.VmPipeAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link FlowServer} in sync mode: plain (uninstrumented) handler tasks on a scheduler whose policy
 * never suspends, so every session flow blocks its worker while it waits.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FlowServerTest {

    private static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress(Pairs.LOOPBACK, 0);
    private static final TransportConfig CLIENT = TransportConfig.builder().readTimeout(Duration.ofSeconds(5)).build();

    private final FlowScheduler scheduler = FlowScheduler.builder()
            .workers(8).policy(SuspendPolicy.never()).name("server-test").build();
    private final FlowConnector connector = FlowConnector.builder().config(CLIENT).ioProcessors(1).build();
    private final Queue<String> results = new ConcurrentLinkedQueue<>();
    private final Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
    private final List<FlowServer> servers = new ArrayList<>();
    private ExecutorService clients;

    /** Echoes lines until "quit" or the end of the stream; records how it ended. */
    private final class Echo implements Callable<String> {
        private final Transport t;

        Echo(Transport t) {
            this.t = t;
        }

        @Override
        public String call() throws IOException {
            try {
                String line;
                while ((line = t.readLine()) != null) {
                    if (line.equals("quit")) {
                        t.writeLine("bye");
                        results.add("quit");
                        return "quit";
                    }
                    t.writeLine("echo: " + line);
                }
                results.add("eof");
                return "eof";
            } catch (IOException | RuntimeException e) {
                failures.add(e);
                throw e;
            }
        }
    }

    @AfterEach
    void checkNothingLeaked() throws Exception {
        if (clients != null) {
            clients.shutdownNow();
            assertTrue(clients.awaitTermination(5, TimeUnit.SECONDS));
        }
        Teardown.closeAll(connector, servers, scheduler);
    }

    private FlowServer echoServer(SocketAddress address, TransportConfig config) throws IOException {
        FlowServer s = FlowServer.builder().scheduler(scheduler).config(config).handler(Echo::new)
                .ioProcessors(2).start(address);
        servers.add(s);
        return s;
    }

    @Test
    void echoesLinesForSeveralConcurrentTcpClients() throws Exception {
        FlowServer server = echoServer(ANY_LOOPBACK_PORT, TransportConfig.DEFAULT);
        int clientCount = 6;
        int rounds = 100;
        clients = Executors.newFixedThreadPool(clientCount);
        List<Future<Integer>> done = new ArrayList<>();
        for (int c = 0; c < clientCount; c++) {
            int id = c;
            done.add(clients.submit(() -> {
                try (Transport t = connector.connect(server.localAddress())) {
                    for (int i = 0; i < rounds; i++) {
                        String msg = "client " + id + " message " + i;
                        t.writeLine(msg);
                        assertEquals("echo: " + msg, t.readLine());
                    }
                    t.writeLine("quit");
                    assertEquals("bye", t.readLine());
                    assertNull(t.readLine(), "the server closes the session when the flow ends");
                    return rounds;
                }
            }));
        }
        for (Future<Integer> f : done) {
            assertEquals(rounds, f.get(20, TimeUnit.SECONDS));
        }
        Conditions.await("all sessions to close", () -> server.openSessions() == 0);
        Conditions.await("all flows to end", () -> scheduler.stats().isIdle(), () -> scheduler.stats().toString());
        assertEquals(clientCount, server.acceptedSessions());
        assertEquals(clientCount, scheduler.stats().completed());
        assertEquals(0, scheduler.stats().failed());
        assertEquals(clientCount, results.stream().filter("quit"::equals).count());
        assertTrue(failures.isEmpty(), failures::toString);
    }

    @Test
    void aTooLongLineClosesOnlyThatSessionWhileOthersKeepWorking() throws Exception {
        FlowServer server = echoServer(ANY_LOOPBACK_PORT, TransportConfig.builder().maxLineLength(64).build());
        Transport good = connector.connect(server.localAddress());
        Transport bad = connector.connect(server.localAddress());
        good.writeLine("before");
        assertEquals("echo: before", good.readLine());

        bad.writeLine("x".repeat(1000));
        assertSessionEnded(bad);
        Conditions.await("the failed flow to end", () -> scheduler.stats().failed() == 1, () -> scheduler.stats().toString());
        Conditions.await("the bad session to close", () -> server.openSessions() == 1);

        good.writeLine("after");
        assertEquals("echo: after", good.readLine());
        good.writeLine("quit");
        assertEquals("bye", good.readLine());
        assertNull(good.readLine());

        Conditions.await("all flows to end", () -> scheduler.stats().isIdle(), () -> scheduler.stats().toString());
        assertEquals(1, scheduler.stats().completed());
        assertEquals(1, failures.size());
        Throwable f = failures.peek();
        assertTrue(f instanceof LineTooLongException && ((LineTooLongException) f).limit() == 64, f.toString());
        good.close();
        bad.close();
    }

    @Test
    void closeClosesOpenSessionsAndWaitingFlowsFailWithAnIOException() throws Exception {
        FlowServer server = echoServer(ANY_LOOPBACK_PORT, TransportConfig.DEFAULT);
        List<Transport> open = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Transport t = connector.connect(server.localAddress());
            t.writeLine("hello " + i);
            assertEquals("echo: hello " + i, t.readLine()); // the flow is running and about to wait again
            open.add(t);
        }
        assertEquals(3, server.openSessions());

        server.close();
        assertTrue(server.isClosed());
        assertEquals(0, server.openSessions(), "close() returns once every session has closed");
        for (Transport t : open) {
            assertSessionEnded(t);
            t.close();
        }
        Conditions.await("the waiting flows to end", () -> scheduler.stats().isIdle(), () -> scheduler.stats().toString());
        assertTrue(results.isEmpty(), "no flow saw a clean end of stream: " + results);
        assertEquals(3, failures.size());
        for (Throwable f : failures) {
            assertTrue(f instanceof IOException && f.getMessage().contains("stopped"), f.toString());
        }
        assertThrows(IOException.class, () -> connector.connect(server.localAddress()), "no longer accepting");
        server.close(); // idempotent
    }

    @Test
    void theSessionClosesWhenTheFlowEnds() throws Exception {
        FlowServer server = FlowServer.builder().scheduler(scheduler)
                .runnableHandler(t -> () -> {
                    try {
                        t.writeLine("hello and goodbye");
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                })
                .start(ANY_LOOPBACK_PORT);
        servers.add(server);
        try (Transport t = connector.connect(server.localAddress())) {
            assertEquals("hello and goodbye", t.readLine());
            assertNull(t.readLine());
        }
        Conditions.await("the session to close", () -> server.openSessions() == 0);
        Conditions.await("the flow to end", () -> scheduler.stats().completed() == 1, () -> scheduler.stats().toString());
    }

    @Test
    void runsOneFlowPerSessionOverInVmPipes() throws Exception {
        FlowServer server = echoServer(new VmPipeAddress(0), TransportConfig.DEFAULT);
        assertTrue(server.localAddress() instanceof VmPipeAddress);
        assertNotEquals(0, ((VmPipeAddress) server.localAddress()).getPort());
        List<Transport> open = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            open.add(connector.connect(server.localAddress()));
        }
        for (int round = 0; round < 20; round++) {
            for (int i = 0; i < open.size(); i++) {
                open.get(i).writeLine(i + "/" + round);
            }
            for (int i = 0; i < open.size(); i++) {
                assertEquals("echo: " + i + "/" + round, open.get(i).readLine());
            }
        }
        for (Transport t : open) {
            t.writeLine("quit");
            assertEquals("bye", t.readLine());
            assertNull(t.readLine());
            t.close();
        }
        Conditions.await("all sessions to close", () -> server.openSessions() == 0);
        Conditions.await("all flows to end", () -> scheduler.stats().isIdle(), () -> scheduler.stats().toString());
        assertEquals(3, scheduler.stats().completed());
    }

    @Test
    void aFailingHandlerFactoryClosesOnlyItsSession() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        FlowServer server = FlowServer.builder().scheduler(scheduler)
                .handler(t -> {
                    if (calls.incrementAndGet() == 1) {
                        throw new IllegalStateException("no handler for the first session");
                    }
                    return new Echo(t);
                })
                .start(ANY_LOOPBACK_PORT);
        servers.add(server);
        try (Transport first = connector.connect(server.localAddress())) {
            assertSessionEnded(first);
        }
        try (Transport second = connector.connect(server.localAddress())) {
            second.writeLine("works");
            assertEquals("echo: works", second.readLine());
        }
        Conditions.await("all sessions to close", () -> server.openSessions() == 0);
        assertEquals(2, server.acceptedSessions());
        assertEquals(1, scheduler.stats().started(), "no flow for the session whose handler failed");
    }

    @Test
    void localAddressReportsTheBoundPort() throws Exception {
        FlowServer server = echoServer(ANY_LOOPBACK_PORT, TransportConfig.DEFAULT);
        InetSocketAddress a = (InetSocketAddress) server.localAddress();
        assertEquals(Pairs.LOOPBACK, a.getAddress());
        assertNotEquals(0, a.getPort());
    }

    @Test
    void startRejectsIncompleteOrInvalidSettings() throws Exception {
        IllegalStateException noScheduler = assertThrows(IllegalStateException.class,
                () -> FlowServer.builder().handler(Echo::new).start(ANY_LOOPBACK_PORT));
        assertEquals("scheduler: null (expected: set with scheduler(...), or threadPerSession())", noScheduler.getMessage());
        IllegalStateException noHandler = assertThrows(IllegalStateException.class,
                () -> FlowServer.builder().scheduler(scheduler).start(ANY_LOOPBACK_PORT));
        assertTrue(noHandler.getMessage().startsWith("handler: null"), noHandler.getMessage());
        IllegalArgumentException processors = assertThrows(IllegalArgumentException.class,
                () -> FlowServer.builder().ioProcessors(0));
        assertEquals("ioProcessors: 0 (expected: 1..256)", processors.getMessage());
        assertThrows(IllegalArgumentException.class, () -> FlowServer.builder().scheduler(scheduler)
                .handler(Echo::new).start(new java.net.SocketAddress() { }));
        try (ServerSocket taken = new ServerSocket(0, 1, Pairs.LOOPBACK)) {
            assertThrows(IOException.class, () -> FlowServer.builder().scheduler(scheduler).handler(Echo::new)
                    .start(new InetSocketAddress(Pairs.LOOPBACK, taken.getLocalPort())));
        }
    }

    /** Asserts the server ended the session: end of stream or a reset, not a timeout or more data. */
    private static void assertSessionEnded(Transport t) {
        try {
            assertNull(t.readLine());
        } catch (IOException e) {
            assertFalse(e instanceof SocketTimeoutException, e.toString());
        }
    }
}
