package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.TransportConfig;
import dev.flow.loader.ContinuationClassLoader;
import flowtest.mina.BodyEcho;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.mina.core.service.SimpleIoProcessorPool;
import org.apache.mina.transport.socket.nio.NioSession;
import org.apache.mina.transport.socket.nio.NioSocketAcceptor;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue #8.11: 1 MiB bodies echoed on keep-alive TCP connections, with clients that close at random
 * points (mid-request, before reading the reply, mid-reply), in sync mode (a thread per session over
 * the blocking methods) and continuation mode (flows on one worker). Whatever the client does, every
 * session must close and every handler must end: no session left open, no handler left running.
 * Bounded: 4 connections x 6 rounds per mode, fixed seeds. The sessions run on Flow's I/O processor.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WritePathStressTest {

    private static final int BODY = 1 << 20;
    private static final int CONNECTIONS = 4;
    private static final int ROUNDS = 6;

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void everySessionClosesAndEveryHandlerEndsWhenClientsCloseAtRandomPoints(boolean continuation) throws Exception {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.mina").strict(true).build();
        FlowScheduler scheduler = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately())
                .name("stress-flows").build();
        AtomicInteger running = new AtomicInteger();
        List<MinaTransport> transports = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<Throwable> unexpected = new java.util.concurrent.CopyOnWriteArrayList<>();
        // Flow's I/O processor, as FlowServer's: MINA's own changes a session's interest set with a read and a
        // write that a reader resuming its reads from its own thread can undo (FlowNioProcessor's javadoc).
        SimpleIoProcessorPool<NioSession> processors = FlowNioProcessors.pool(1, null);
        NioSocketAcceptor acceptor = new NioSocketAcceptor(processors);
        acceptor.setReuseAddress(true);
        acceptor.setHandler(new TransportIoHandler(TransportConfig.DEFAULT, new TransportIoHandler.Listener() {
            @Override
            public void opened(MinaTransport t) {
                transports.add(t);
                running.incrementAndGet();
                if (continuation) {
                    Callable<?> task = loader.newInstance(Callable.class, BodyEcho.class.getName(), t);
                    scheduler.submit(task).toCompletionStage().whenComplete((r, e) -> running.decrementAndGet());
                } else {
                    Thread th = new Thread(() -> {
                        try {
                            new BodyEcho(t).call();
                        } catch (IOException e) {
                            // the client closed: expected
                        } catch (Exception e) {
                            unexpected.add(e);
                        } finally {
                            running.decrementAndGet();
                        }
                    }, "stress-session");
                    th.setDaemon(true);
                    th.start();
                }
            }

            @Override
            public void closed(MinaTransport t) {
            }
        }));
        ExecutorService clients = Executors.newFixedThreadPool(CONNECTIONS);
        try {
            acceptor.bind(new InetSocketAddress(Pairs.LOOPBACK, 0));
            int port = acceptor.getLocalAddress().getPort();
            List<Future<Integer>> done = new ArrayList<>();
            for (int c = 0; c < CONNECTIONS; c++) {
                long seed = 1000L * c + (continuation ? 1 : 0);
                done.add(clients.submit(() -> client(port, new Random(seed))));
            }
            int completed = 0;
            for (Future<Integer> f : done) {
                try {
                    completed += f.get(60, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    throw new AssertionError("a client failed; " + running + " running; " + scheduler.stats()
                            + sessionStacks() + states(transports), e.getCause());
                }
            }
            assertTrue(completed > 0, "some echoes completed");
            Conditions.await("every session to close", () -> acceptor.getManagedSessionCount() == 0,
                    Duration.ofSeconds(15), () -> acceptor.getManagedSessionCount() + " open, " + running + " running");
            Conditions.await("every handler to end", () -> running.get() == 0, Duration.ofSeconds(15),
                    () -> running + " running; " + scheduler.stats() + sessionStacks() + states(transports));
            Conditions.await("the scheduler to be idle", () -> scheduler.stats().isIdle(), scheduler.stats()::toString);
            assertEquals(List.of(), unexpected);
        } finally {
            clients.shutdownNow();
            acceptor.dispose(true);
            processors.dispose();
            scheduler.close();
            assertTrue(scheduler.awaitTermination(Duration.ofSeconds(5)));
        }
    }

    private static String states(List<MinaTransport> transports) {
        StringBuilder b = new StringBuilder();
        for (MinaTransport t : transports) {
            b.append("\n").append(t.state());
        }
        return b.toString();
    }

    private static String sessionStacks() {
        StringBuilder b = new StringBuilder();
        Thread.getAllStackTraces().forEach((t, st) -> {
            if (t.getName().equals("stress-session") || t.getName().contains("NioProcessor")) {
                b.append("\n").append(t.getName()).append(" ").append(t.getState());
                for (int i = 0; i < Math.min(12, st.length); i++) {
                    b.append("\n    at ").append(st[i]);
                }
            }
        });
        return b.toString();
    }

    /** Runs rounds on one connection, closing it at a random point in about one round of three. */
    private static int client(int port, Random random) throws IOException {
        byte[] body = new byte[BODY];
        random.nextBytes(body);
        int echoed = 0;
        for (int round = 0; round < ROUNDS; round++) {
            try (Socket s = new Socket(Pairs.LOOPBACK, port)) {
                s.setSoTimeout(20_000);
                OutputStream out = s.getOutputStream();
                DataInputStream in = new DataInputStream(s.getInputStream());
                int requests = 1 + random.nextInt(3);
                for (int r = 0; r < requests; r++) {
                    int abortAt = random.nextInt(3) == 0 ? random.nextInt(3) : -1;
                    out.write((BODY + "\n").getBytes(StandardCharsets.US_ASCII));
                    if (abortAt == 0) {
                        out.write(body, 0, BODY / 2);
                        s.setSoLinger(true, 0); // mid-request reset
                        break;
                    }
                    out.write(body);
                    out.flush();
                    if (abortAt == 1) {
                        break; // close before reading the reply
                    }
                    assertEquals(BODY + "\n", readLine(in));
                    byte[] got = new byte[BODY];
                    if (abortAt == 2) {
                        in.readFully(got, 0, BODY / 3); // close mid-reply
                        break;
                    }
                    in.readFully(got);
                    assertArrayEquals(body, got);
                    echoed++;
                }
            }
        }
        return echoed;
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            b.append((char) c);
            if (c == '\n') {
                break;
            }
        }
        return b.toString();
    }
}
