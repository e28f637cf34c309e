package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.loader.ContinuationClassLoader;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.mina.core.service.IoServiceStatistics;
import org.apache.mina.core.session.IoSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * MINA's service-wide statistics, updated under one lock per service on every read and write, are off on
 * Flow's servers and connectors, while each session's own counters (what idle detection reads) still count.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ServiceStatisticsTest {

    private static final ContinuationClassLoader LOADER = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(false).build();

    private final FlowScheduler scheduler = FlowScheduler.builder()
            .workers(1).policy(SuspendPolicy.immediately()).name("statistics-test").build();
    private final FlowConnector connector = FlowConnector.builder().ioProcessors(1).build();
    private final List<FlowServer> servers = new ArrayList<>();

    @AfterEach
    void closeEverything() throws Exception {
        Teardown.closeAll(connector, servers, scheduler);
    }

    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void echoedLinesCountInTheSessionButNotInTheServiceWideStatistics(ServerMode mode) throws Exception {
        AtomicReference<MinaTransport> serverSide = new AtomicReference<>();
        Queue<String> outcomes = new ConcurrentLinkedQueue<>();
        FlowServer server = mode.builder(scheduler).ioProcessors(1)
                .handler(t -> {
                    serverSide.set((MinaTransport) t);
                    return LOADER.newInstance(Callable.class, "flowtest.mina.LineEcho", t, outcomes);
                })
                .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        servers.add(server);
        try (Socket s = new Socket()) {
            s.connect(server.localAddress(), 10_000);
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
            for (int i = 0; i < 10; i++) {
                out.write(("line " + i + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                assertEquals("line " + i, in.readLine());
            }
            IoSession session = serverSide.get().session();
            assertEquals(80, session.getReadBytes(), "the session's own count of bytes read");
            // The I/O thread may count a write after the client has read its bytes.
            Conditions.await("the session's own count of bytes written reaches 70 (\"line i\\n\" x 10)",
                    () -> session.getWrittenBytes() == 70, () -> "written: " + session.getWrittenBytes());
            assertTrue(session.getLastWriteTime() > 0, "the session's last write time");
            IoServiceStatistics service = session.getService().getStatistics();
            assertEquals(0, service.getReadBytes(), "service-wide bytes read");
            assertEquals(0, service.getWrittenBytes(), "service-wide bytes written");
            assertEquals(0, service.getReadMessages(), "service-wide messages read");
        }
    }

    @ParameterizedTest
    @EnumSource(ServerMode.class)
    void linesSentThroughAConnectorCountInTheSessionButNotInTheServiceWideStatistics(ServerMode mode)
            throws Exception {
        Queue<String> outcomes = new ConcurrentLinkedQueue<>();
        FlowServer server = mode.builder(scheduler).ioProcessors(1)
                .handler(t -> LOADER.newInstance(Callable.class, "flowtest.mina.LineEcho", t, outcomes))
                .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        servers.add(server);
        MinaTransport client = (MinaTransport) connector.connect(server.localAddress());
        try {
            for (int i = 0; i < 10; i++) {
                client.writeLine("line " + i);
                client.flush();
                assertEquals("line " + i, client.readLine());
            }
            IoSession session = client.session();
            assertEquals(70, session.getReadBytes(), "the session's own count of bytes read (\"line i\\n\" x 10)");
            Conditions.await("the session's own count of bytes written reaches 70",
                    () -> session.getWrittenBytes() == 70, () -> "written: " + session.getWrittenBytes());
            IoServiceStatistics service = session.getService().getStatistics();
            assertEquals(0, service.getReadBytes(), "the connector's service-wide bytes read");
            assertEquals(0, service.getWrittenBytes(), "the connector's service-wide bytes written");
            assertEquals(0, service.getReadMessages(), "the connector's service-wide messages read");
        } finally {
            client.close();
        }
    }
}
