package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.internal.Pins;
import dev.flow.loader.ContinuationClassLoader;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.mina.transport.vmpipe.VmPipeAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A {@link FlowServer} handler that takes a {@code java.net.Socket}: a thread-per-connection server and its
 * client, both plain {@code DataInputStream}/{@code DataOutputStream} code over sockets, in sync mode and in
 * continuation mode (lenient: a wait inside a JDK decorator pins), give the same results.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SocketHandlerTest {

    private static final ContinuationClassLoader LENIENT = ContinuationClassLoader.builder().include("flowtest.mina").build();
    private static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress(Pairs.LOOPBACK, 0);
    private static final String EXPECTED = "1000#1 4001#2 9003#3 16006#4 25010#5 bye -1";

    private final FlowScheduler scheduler = FlowScheduler.builder()
            .workers(2).policy(SuspendPolicy.immediately()).name("socket-handler-test").build();
    private final FlowConnector connector = FlowConnector.builder().ioProcessors(1).build();
    private final List<FlowServer> servers = new ArrayList<>();
    private final List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();

    @AfterEach
    void release() throws Exception {
        Teardown.closeAll(connector, servers, scheduler);
        assertEquals(List.of(), failures, "sessions that failed");
    }

    private FlowServer server(String mode) throws Exception {
        FlowServer.Builder b = FlowServer.builder().ioProcessors(1).onFailure((t, e) -> failures.add(e));
        if (mode.equals("sync")) {
            b.threadPerSession().handler(flowtest.mina.BinarySumServer.class);
        } else {
            b.scheduler(scheduler).handler(LENIENT, "flowtest.mina.BinarySumServer");
        }
        FlowServer s = b.start(ANY_LOOPBACK_PORT);
        servers.add(s);
        return s;
    }

    private String client(String mode, FlowServer server) throws Exception {
        InetSocketAddress to = (InetSocketAddress) server.localAddress();
        if (mode.equals("sync")) {
            return new flowtest.mina.BinarySumClient(connector.socketFactory(), to, 5).call();
        }
        Callable<?> task = LENIENT.newInstance(Callable.class, "flowtest.mina.BinarySumClient",
                connector.socketFactory(), to, 5);
        FlowHandle<?> h = scheduler.submit(task);
        return (String) h.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @ParameterizedTest(name = "server {0}, client {1}")
    @CsvSource({"sync, sync", "sync, continuation", "continuation, sync", "continuation, continuation"})
    void aDataStreamProtocolOverSocketsGivesTheSameResultsInEveryMode(String serverMode, String clientMode)
            throws Exception {
        FlowServer server = server(serverMode);
        assertEquals(EXPECTED, client(clientMode, server));
        Conditions.await("the session to end", () -> server.stats().completed() == 1, () -> server.stats().toString());
        List<String> pinned = Pins.warnings().stream().filter(w -> w.contains("flowtest.mina.BinarySum"))
                .map(w -> w.substring(0, w.indexOf(':'))).distinct().collect(Collectors.toList());
        System.out.println("SocketHandlerTest: server " + serverMode + ", client " + clientMode + ": pinned sites so far "
                + pinned.size() + " " + pinned);
    }

    @Test
    void aSocketHandlerIsRefusedOnAnInVmAddress() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> FlowServer.builder().threadPerSession()
                .handler(flowtest.mina.BinarySumServer.class).start(new VmPipeAddress(0)));
        assertTrue(e.getMessage().startsWith("handler class: flowtest.mina.BinarySumServer takes a Socket (expected: a TCP "
                + "address to start on, not "), e.getMessage());
    }
}
