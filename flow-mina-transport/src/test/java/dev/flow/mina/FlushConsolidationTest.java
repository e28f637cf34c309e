package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.loader.ContinuationClassLoader;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Write coalescing and flush consolidation: a reply written in pieces goes out in one socket write, a flow's
 * replies to requests that are already buffered go out together, and none later than the flow's next wait.
 * For pipelining, a raw client socket sends the lines in one write; the handler
 * ({@code flowtest.mina.PipelinedEcho}) starts only once the server's transport holds them all, so what
 * is consolidated does not depend on timing; the server's socket writes are counted by {@link
 * MinaTransport#sends()}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FlushConsolidationTest {

    private static final ContinuationClassLoader LOADER = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(false).build();

    private final FlowScheduler scheduler = FlowScheduler.builder()
            .workers(1).policy(SuspendPolicy.immediately()).name("consolidation-test").build();
    private final FlowConnector connector = FlowConnector.builder().ioProcessors(1).build();
    private final List<FlowServer> servers = new ArrayList<>();
    private final AtomicReference<MinaTransport> serverSide = new AtomicReference<>();
    private final CompletableFuture<Void> go = new CompletableFuture<>();
    private final CompletableFuture<Void> hold = new CompletableFuture<>();
    private final Queue<String> events = new ConcurrentLinkedQueue<>();

    @AfterEach
    void closeEverything() throws Exception {
        go.complete(null);
        hold.complete(null);
        Teardown.closeAll(connector, servers, scheduler);
    }

    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void sixteenPipelinedRepliesFlushedOneByOneGoOutInOneSocketWriteInAFlow(ServerMode mode) throws Exception {
        FlowServer server = start(mode, "echo", 0);
        try (Socket s = connect(server)) {
            List<String> lines = lines(16, 6);
            sendAll(s, lines);
            assertEquals(lines, readLines(s, 16));
            MinaTransport t = serverSide.get();
            if (mode == ServerMode.SYNC) {
                // Outside a flow nothing is deferred: a plain thread may block anywhere Flow cannot see.
                assertEquals(16, t.sends(), "sync mode: one socket write per flushed reply");
            } else {
                assertEquals(1, t.sends(), "the 16 replies in one socket write");
            }
        }
    }

    @Test
    void withTheSystemPropertyFalseEachFlushedReplyIsOneSocketWriteAsBefore() throws Exception {
        String old = System.getProperty(MinaTransport.CONSOLIDATE_PROPERTY);
        System.setProperty(MinaTransport.CONSOLIDATE_PROPERTY, "false");
        try {
            FlowServer server = start(ServerMode.WORKERS, "echo", 0);
            try (Socket s = connect(server)) {
                List<String> lines = lines(16, 6);
                sendAll(s, lines);
                assertEquals(lines, readLines(s, 16));
                assertEquals(16, serverSide.get().sends(), "-D" + MinaTransport.CONSOLIDATE_PROPERTY + "=false");
            }
        } finally {
            if (old == null) {
                System.clearProperty(MinaTransport.CONSOLIDATE_PROPERTY);
            } else {
                System.setProperty(MinaTransport.CONSOLIDATE_PROPERTY, old);
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"future, WORKERS", "future, IO_THREADS", "latch, WORKERS", "latch, IO_THREADS", "pinned, WORKERS",
        "outside, WORKERS"})
    void aReplyFlushedBeforeTheFlowWaitsReachesThePeerWhileTheFlowWaits(String then, ServerMode mode) throws Exception {
        FlowServer server = start(mode, then, 0);
        try (Socket s = connect(server)) {
            List<String> lines = lines(4, 6);
            sendAll(s, lines);
            assertEquals(lines.subList(0, 1), readLines(s, 1), "the first reply, before the flow's wait ends");
            assertTrue(events.isEmpty(), "the flow still waits: " + events);
            hold.complete(null);
            assertEquals(lines.subList(1, 4), readLines(s, 3));
            assertEquals(List.of("resumed"), List.copyOf(events));
        }
    }

    @ParameterizedTest
    @EnumSource(value = ServerMode.class, names = {"WORKERS", "IO_THREADS"})
    void aReplyFlushedBeforeTheFlowSleepsReachesThePeerBeforeItWakes(ServerMode mode) throws Exception {
        FlowServer server = start(mode, "sleep", 3_000);
        try (Socket s = connect(server)) {
            List<String> lines = lines(4, 6);
            sendAll(s, lines);
            assertEquals(lines.subList(0, 1), readLines(s, 1));
            assertTrue(events.isEmpty(), "the reply came only after the flow woke: " + events);
            assertEquals(lines.subList(1, 4), readLines(s, 3));
        }
    }

    @ParameterizedTest
    @EnumSource(value = ServerMode.class, names = {"WORKERS", "IO_THREADS"})
    void aReplyFlushedBeforeTheFlowEndsWithInputBufferedReachesThePeer(ServerMode mode) throws Exception {
        FlowServer server = start(mode, "end", 0);
        try (Socket s = connect(server)) {
            List<String> lines = lines(4, 6);
            sendAll(s, lines);
            BufferedReader in = reader(s);
            assertEquals(lines.get(0), in.readLine());
            assertNull(in.readLine(), "the session closes after the reply");
        }
    }

    @ParameterizedTest
    @EnumSource(value = ServerMode.class, names = {"WORKERS", "IO_THREADS"})
    void repliesPastTheBoundGoOutBeforeTheInputRunsDry(ServerMode mode) throws Exception {
        FlowServer server = start(mode, "echo", 0);
        try (Socket s = connect(server)) {
            int length = 3_000;
            List<String> lines = lines(16, length);
            sendAll(s, lines);
            assertEquals(lines, readLines(s, 16));
            long sends = serverSide.get().sends();
            int perSend = MinaTransport.DEFERRED_BYTES_LIMIT / (length + 1) + 1;
            assertEquals((16 + perSend - 1) / perSend, sends,
                    "replies deferred up to " + MinaTransport.DEFERRED_BYTES_LIMIT + " bytes, then sent with the one past it");
        }
    }

    @Test
    void aReplyLargerThanTheBoundGoesOutAtOnceWithWhatWasDeferred() throws Exception {
        FlowServer server = start(ServerMode.WORKERS, "echo", 0);
        try (Socket s = connect(server)) {
            List<String> lines = new ArrayList<>(lines(3, 6));
            lines.add(1, "x".repeat(MinaTransport.DEFERRED_BYTES_LIMIT * 3));
            sendAll(s, lines);
            assertEquals(lines, readLines(s, 4));
            assertEquals(2, serverSide.get().sends(), "the first two replies at once, then the last two");
        }
    }

    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void aReplyWrittenInThreePiecesAndFlushedOnceIsOneSocketWriteInAFlow(ServerMode mode) throws Exception {
        FlowServer server = startPiecewise(mode, true);
        try (Socket s = connect(server)) {
            for (int i = 0; i < 5; i++) {
                String line = "request " + i;
                sendLine(s, line);
                assertEquals("<" + line + ">", reader(s).readLine());
            }
            MinaTransport t = serverSide.get();
            if (mode == ServerMode.SYNC) {
                assertEquals(15, t.sends(), "sync mode: every write goes out at once");
            } else {
                assertEquals(5, t.sends(), "each reply's three writes in one socket write, at its flush");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void aReplyWrittenWithoutAFlushReachesThePeerWhenTheFlowWaitsForTheNextRequest(ServerMode mode) throws Exception {
        FlowServer server = startPiecewise(mode, false);
        try (Socket s = connect(server)) {
            for (int i = 0; i < 3; i++) {
                String line = "request " + i;
                sendLine(s, line);
                assertEquals("<" + line + ">", reader(s).readLine());
            }
            sendLine(s, "bye");
            assertEquals("<bye>", reader(s).readLine(), "the last reply, written unflushed as the flow ended");
            assertNull(reader(s).readLine(), "the session closes after it");
            if (mode != ServerMode.SYNC) {
                assertEquals(4, serverSide.get().sends(), "each reply's three writes in one socket write, at the flow's next wait or end");
            }
        }
    }

    private FlowServer startPiecewise(ServerMode mode, boolean flush) throws Exception {
        FlowServer server = mode.builder(scheduler).ioProcessors(1)
                .handler(t -> {
                    serverSide.set((MinaTransport) t);
                    return LOADER.newInstance(Callable.class, "flowtest.mina.PiecewiseEcho", t, flush);
                })
                .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        servers.add(server);
        return server;
    }

    private static void sendLine(Socket s, String line) throws Exception {
        s.getOutputStream().write((line + "\n").getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
    }

    private FlowServer start(ServerMode mode, String then, long millis) throws Exception {
        FlowServer server = mode.builder(scheduler).ioProcessors(1)
                .config(dev.flow.TransportConfig.builder().maxLineLength(1 << 16).build())
                .handler(t -> {
                    serverSide.set((MinaTransport) t);
                    // "outside": a wait in code the loader did not load (Flow.await blocks the worker there).
                    Runnable outside = () -> dev.flow.Flow.await(hold);
                    return LOADER.newInstance(Callable.class, "flowtest.mina.PipelinedEcho", t, go, then, hold,
                            millis, events, outside);
                })
                .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        servers.add(server);
        return server;
    }

    private static Socket connect(FlowServer server) throws Exception {
        Socket s = new Socket();
        s.connect(server.localAddress(), 10_000);
        s.setSoTimeout(20_000);
        s.setTcpNoDelay(true);
        return s;
    }

    private static List<String> lines(int n, int length) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String head = "line " + i + " ";
            lines.add(head + "x".repeat(Math.max(0, length - head.length())));
        }
        return lines;
    }

    /** Sends the lines in one write, waits until the server's transport holds them all, then lets the handler go. */
    private void sendAll(Socket s, List<String> lines) throws Exception {
        byte[] all = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.US_ASCII);
        s.getOutputStream().write(all);
        s.getOutputStream().flush();
        Conditions.await("the server to buffer the " + all.length + " bytes",
                () -> serverSide.get() != null && serverSide.get().bufferedBytes() == all.length,
                () -> String.valueOf(serverSide.get() == null ? null : serverSide.get().state()));
        go.complete(null);
    }

    private BufferedReader reader;

    private BufferedReader reader(Socket s) throws Exception {
        if (reader == null) {
            reader = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
        }
        return reader;
    }

    private List<String> readLines(Socket s, int n) throws Exception {
        List<String> got = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            got.add(reader(s).readLine());
        }
        return got;
    }
}
