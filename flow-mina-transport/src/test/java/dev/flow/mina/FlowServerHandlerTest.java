package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.Transport;
import dev.flow.TransportConfig;
import dev.flow.loader.ContinuationClassLoader;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The handler entry point in continuation mode: one worker and a lenient loader (the default), where a
 * handler that cannot suspend would block the only worker for the life of its connection.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FlowServerHandlerTest {

    private static final ContinuationClassLoader LENIENT = ContinuationClassLoader.builder().include("flowtest.mina").build();
    private static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress(Pairs.LOOPBACK, 0);

    private final FlowScheduler scheduler = FlowScheduler.builder()
            .workers(1).policy(SuspendPolicy.immediately()).name("handler-test").build();
    private final FlowConnector connector = FlowConnector.builder().ioProcessors(1)
            .config(TransportConfig.builder().readTimeout(Duration.ofSeconds(5)).build()).build();
    private final Queue<String> outcomes = new ConcurrentLinkedQueue<>();
    private final Queue<Throwable> reported = new ConcurrentLinkedQueue<>();
    private final List<FlowServer> servers = new ArrayList<>();

    @AfterEach
    void checkNothingLeaked() throws Exception {
        Teardown.closeAll(connector, servers, scheduler);
    }

    private FlowServer start(FlowServer.Builder b) throws IOException {
        FlowServer s = b.scheduler(scheduler).onFailure((t, e) -> reported.add(e)).ioProcessors(1).start(ANY_LOOPBACK_PORT);
        servers.add(s);
        return s;
    }

    @Test
    void aHandlerNamedByClassAndLoaderServesTwoClientsAtOnceOnOneWorker() throws Exception {
        FlowServer server = start(FlowServer.builder().handler(LENIENT, "flowtest.mina.LineEcho", outcomes));
        try (Transport first = connector.connect(server.localAddress());
             Transport second = connector.connect(server.localAddress())) {
            first.writeLine("one");
            assertEquals("one", first.readLine());
            second.writeLine("two");
            assertEquals("two", second.readLine(), "the first session does not hold the only worker");
            first.writeLine("quit");
            second.writeLine("quit");
            assertEquals("bye", first.readLine());
            assertEquals("bye", second.readLine());
        }
        Conditions.await("both sessions to complete", () -> server.stats().completed() == 2, () -> server.stats().toString());
        assertTrue(reported.isEmpty(), reported::toString);
    }

    @Test
    void aLambdaWrappedAroundTheLoadedHandlerFailsItsSessionAtOnceNamingTheFix() throws Exception {
        FlowServer server = start(FlowServer.builder().handler(t -> {
            Callable<?> echo = LENIENT.newInstance(Callable.class, "flowtest.mina.LineEcho", t, outcomes);
            return () -> echo.call();
        }));
        try (Transport first = connector.connect(server.localAddress());
             Transport second = connector.connect(server.localAddress())) {
            first.writeLine("one");
            second.writeLine("two");
            assertNull(first.readLine(), "the session is closed instead of pinning the worker");
            assertNull(second.readLine(), "the session is closed instead of pinning the worker");
        }
        Conditions.await("both sessions to fail", () -> server.stats().failed() == 2, () -> server.stats().toString());
        assertEquals(2, reported.size());
        for (Throwable e : reported) {
            assertTrue(e instanceof IllegalStateException, e.toString());
            assertTrue(e.getMessage().startsWith("handler task: " + FlowServerHandlerTest.class.getName() + "$$Lambda"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("FlowServer.builder().handler(loader, "), e.getMessage());
        }
        assertEquals(0, scheduler.stats().started(), "no flow was started to pin a worker");
        assertTrue(outcomes.isEmpty(), outcomes::toString);
    }

    @Test
    void startRefusesAHandlerClassThatIsNotInstrumentedInContinuationMode() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> start(FlowServer.builder().handler(flowtest.mina.LineEcho.class, outcomes)));
        assertTrue(e.getMessage().startsWith("handler class: flowtest.mina.LineEcho (loaded by "), e.getMessage());
        assertTrue(e.getMessage().contains("is not an instrumented flow task"), e.getMessage());
        assertTrue(e.getMessage().contains("ContinuationClassLoader"), e.getMessage());
        assertTrue(e.getMessage().endsWith("or FlowServer.builder().threadPerSession() for sync mode"), e.getMessage());
    }

    @Test
    void startRefusesAnIncludedHandlerClassWhoseEveryWaitIsPinnedSayingSo() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> start(FlowServer.builder().handler(LENIENT, "flowtest.mina.AllWaitsPinned")));
        assertTrue(e.getMessage().startsWith("handler class: flowtest.mina.AllWaitsPinned (loaded by "), e.getMessage());
        assertTrue(e.getMessage().contains("is in the loader's scope, but no wait its call() or run() reaches can"
                + " suspend"), e.getMessage());
        assertTrue(e.getMessage().contains("synchronized block"), e.getMessage());
        assertTrue(e.getMessage().contains("threadPerSession()"), e.getMessage());
    }

    @Test
    void aHandlerClassWithoutASuitableConstructorIsRefusedByTheBuilder() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FlowServer.builder().handler(LENIENT, "flowtest.mina.LineEcho"));
        assertEquals("handler class: flowtest.mina.LineEcho (expected: a public constructor (Transport) or (Socket))",
                e.getMessage());
        IllegalArgumentException notATask = assertThrows(IllegalArgumentException.class,
                () -> FlowServer.builder().handler(String.class));
        assertEquals("handler class: java.lang.String (expected: a class implementing Callable or Runnable)",
                notATask.getMessage());
    }

    @Test
    void syncModeAcceptsAHandlerClassThatIsNotInstrumented() throws Exception {
        FlowServer server = FlowServer.builder().threadPerSession().handler(flowtest.mina.LineEcho.class, outcomes)
                .start(ANY_LOOPBACK_PORT);
        servers.add(server);
        try (Transport t = connector.connect(server.localAddress())) {
            t.writeLine("quit");
            assertEquals("bye", t.readLine());
        }
        Conditions.await("the session to complete", () -> server.stats().completed() == 1, () -> server.stats().toString());
    }

    @Test
    void aClientClassSubmittedThroughTheConnectorRunsAsASuspendingFlow() throws Exception {
        FlowServer server = start(FlowServer.builder().handler(LENIENT, "flowtest.mina.LineEcho", outcomes));
        @SuppressWarnings("unchecked")
        Class<? extends Callable<Integer>> client =
                (Class<? extends Callable<Integer>>) LENIENT.loadClass("flowtest.mina.LineClient");
        List<FlowHandle<Integer>> handles = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            handles.add(connector.submit(scheduler, client, server.localAddress(), 5, "c" + i));
        }
        for (FlowHandle<Integer> h : handles) {
            assertEquals(5, h.get(Duration.ofSeconds(10)), "client and server flows share the one worker");
        }
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> connector.submit(scheduler, flowtest.mina.LineClient.class, server.localAddress(), 5, "plain"));
        assertTrue(e.getMessage().startsWith("client class: flowtest.mina.LineClient (loaded by "), e.getMessage());
        assertTrue(e.getMessage().endsWith("or its call() on a plain thread for sync mode"), e.getMessage());
    }
}
