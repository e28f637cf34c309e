package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.flow.FlowScheduler;
import dev.flow.loader.ContinuationClassLoader;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.apache.mina.core.filterchain.IoFilterAdapter;
import org.apache.mina.core.session.IoSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How many I/O threads a TCP server has when its builder sets none: one per processor with {@link
 * Dispatch#WORKERS} as with the default dispatch, MINA's processors plus one for {@code threadPerSession()}.
 * A filter records the thread of every read; MINA hands sessions to its I/O threads in turn, so twice as many
 * sessions as MINA's default reach every one of them.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FlowServerIoThreadCountTest {

    private static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress(Pairs.LOOPBACK, 0);
    private static final ContinuationClassLoader LOADER = ContinuationClassLoader.builder()
            .include("flowtest.mina").build();
    private static final int PROCESSORS = Runtime.getRuntime().availableProcessors();

    private final FlowScheduler scheduler = FlowScheduler.builder().workers(1).name("io-count-test").build();
    private final List<FlowServer> servers = new ArrayList<>();
    private final List<LineSocketClient> clients = new ArrayList<>();
    private final Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
    private final Set<Thread> readers = ConcurrentHashMap.newKeySet();

    @AfterEach
    void checkNothingLeaked() throws Exception {
        for (LineSocketClient c : clients) {
            c.close();
        }
        Teardown.closeAll(servers, scheduler);
        assertEquals(List.of(), List.copyOf(failures));
    }

    /** A filter that records the thread of each read, then passes it on. */
    private final class ReadingThreads extends IoFilterAdapter {
        @Override
        public void messageReceived(NextFilter next, IoSession session, Object message) throws Exception {
            readers.add(Thread.currentThread());
            next.messageReceived(session, message);
        }
    }

    /** Opens twice MINA's default count of sessions to {@code server}, each answered once; the threads that read. */
    private int threadsReadingFromSessions(FlowServer server) throws Exception {
        servers.add(server);
        for (int i = 0; i < 2 * (PROCESSORS + 1); i++) {
            LineSocketClient c = new LineSocketClient(server.localAddress());
            clients.add(c);
            String reply = c.call("line " + i);
            assertEquals(true, reply != null && reply.startsWith("line " + i), "reply: " + reply);
        }
        return readers.size();
    }

    @Test
    void aWorkersServerHasOneIoThreadPerProcessorByDefault() throws Exception {
        FlowServer server = FlowServer.builder().scheduler(scheduler).dispatch(Dispatch.WORKERS)
                .filter("readers", new ReadingThreads()).onFailure((t, e) -> failures.add(e))
                .handler(LOADER, "flowtest.mina.ThreadEcho", new CompletableFuture<String>()).start(ANY_LOOPBACK_PORT);
        assertEquals(PROCESSORS, threadsReadingFromSessions(server), "I/O threads that read: " + readers);
    }

    @Test
    void aThreadPerSessionServerKeepsMinasDefaultOfProcessorsPlusOne() throws Exception {
        FlowServer server = FlowServer.builder().threadPerSession()
                .filter("readers", new ReadingThreads()).onFailure((t, e) -> failures.add(e))
                .handler(t -> () -> {
                    String line;
                    while ((line = t.readLine()) != null) {
                        t.writeLine(line);
                    }
                    return null;
                }).start(ANY_LOOPBACK_PORT);
        assertEquals(PROCESSORS + 1, threadsReadingFromSessions(server), "I/O threads that read: " + readers);
    }
}
