package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.UnsuspendableFrameException;
import dev.flow.internal.Pins;
import dev.flow.loader.ContinuationClassLoader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.mina.core.filterchain.IoFilterAdapter;
import org.apache.mina.core.session.IoSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code Connector.connect()} reached where the flow cannot suspend (a constructor, a held monitor) is a
 * pinned wait like any other: it blocks the worker and warns once per site, or is refused by site in
 * strict mode.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PinnedConnectTest {

    private static final ContinuationClassLoader STRICT = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(true).build();
    private static final ContinuationClassLoader LENIENT = ContinuationClassLoader.builder()
            .include("flowtest.mina").build();

    private final FlowScheduler scheduler = FlowScheduler.builder()
            .workers(1).policy(SuspendPolicy.immediately()).name("pinned-connect-test").build();
    /**
     * The site whose warning a new session's creation waits for (up to 10 s), or {@code null}: MINA completes
     * a {@code ConnectFuture} only after its session's {@code sessionCreated}, so holding that until the flow
     * has warned makes the first connect really wait in its pinned frame, however fast loopback is.
     */
    private volatile String holdUntilWarned;
    private final FlowConnector connector = FlowConnector.builder().ioProcessors(1)
            .filter("hold-until-warned", new IoFilterAdapter() {
                @Override
                public void sessionCreated(NextFilter next, IoSession session) throws Exception {
                    String site = holdUntilWarned;
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    while (site != null && warningsFor(site).isEmpty() && System.nanoTime() - deadline < 0) {
                        java.util.concurrent.locks.LockSupport.parkNanos(100_000);
                    }
                    next.sessionCreated(session);
                }
            }).build();

    @AfterEach
    void release() throws Exception {
        Teardown.closeAll(connector, List.of(), scheduler);
    }

    private FlowHandle<?> start(ContinuationClassLoader loader, String where, ServerSocket server) {
        InetSocketAddress address = new InetSocketAddress(Pairs.LOOPBACK, server.getLocalPort());
        Callable<?> task = loader.newInstance(Callable.class, "flowtest.mina.PinnedConnect",
                connector.connector(address), where);
        return scheduler.submit(task);
    }

    @ParameterizedTest
    @ValueSource(strings = {"constructor", "synchronized"})
    void connectInAPinnedFrameBlocksTheWorkerAndWarnsOncePerSite(String where) throws Exception {
        String site = where.equals("constructor") ? "flowtest.mina.PinnedConnect$Opened.<init>"
                : "flowtest.mina.PinnedConnect.call";
        holdUntilWarned = site;
        try (ServerSocket server = new ServerSocket(0, 4, Pairs.LOOPBACK)) {
            server.setSoTimeout(5000);
            for (int round = 0; round < 2; round++) {
                FlowHandle<?> h = start(LENIENT, where, server);
                try (Socket peer = server.accept()) {
                    OutputStream out = peer.getOutputStream();
                    out.write("hello\n".getBytes(StandardCharsets.US_ASCII));
                    assertEquals("hello", h.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));
                }
            }
        }
        assertEquals(1, warningsFor(site).size(), "one warning for the site: " + Pins.warnings());
    }

    private static List<String> warningsFor(String site) {
        return Pins.warnings().stream().filter(w -> w.startsWith("cannot suspend at " + site)).collect(Collectors.toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"constructor", "synchronized"})
    void connectInAPinnedFrameIsRefusedBySiteInStrictMode(String where) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 4, Pairs.LOOPBACK)) {
            FlowHandle<?> h = start(STRICT, where, server);
            Future<?> f = h.toCompletionStage().toCompletableFuture();
            ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(10, TimeUnit.SECONDS));
            assertInstanceOf(UnsuspendableFrameException.class, e.getCause());
            assertTrue(e.getCause().getMessage().contains("flowtest.mina.PinnedConnect"), e.getCause().getMessage());
        }
    }
}
