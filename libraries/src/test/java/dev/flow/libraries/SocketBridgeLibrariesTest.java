package dev.flow.libraries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.SuspendPolicy;
import dev.flow.internal.NameLookups;
import dev.flow.internal.Pins;
import dev.flow.loader.ContinuationClassLoader;
import dev.flow.mina.FlowConnector;
import dev.flow.samples.http.HttpProtocol;
import dev.flow.samples.launcher.LaunchOptions;
import dev.flow.samples.launcher.SampleProtocol;
import dev.flow.samples.launcher.SampleServer;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.net.SocketFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Unmodified client libraries from Maven Central, handed {@link FlowConnector#socketFactory()}, against the
 * project's sample servers (RESP for Jedis, HTTP/1.1 for Apache HttpClient 5): loaded normally on a plain
 * thread (sync), and through a lenient and a strict {@code ContinuationClassLoader} as flows on two workers,
 * many sessions at once. Every session gives the same transcript in every mode; the flows really suspend, and
 * no site pins. Jedis and HttpClient 5 also with no factory at all: their own {@code new Socket()} makes Flow's
 * sockets when loaded; and so given the server as {@code localhost}, a name each looks up before connecting, which
 * a flow does on a lookup thread (strict included).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SocketBridgeLibrariesTest {

    private static final int SESSIONS = 20;

    /** A library, the client class that uses it, the packages to load, and its server. */
    enum Client {
        JEDIS("flowtest.libraries.JedisClient", new dev.flow.samples.redis.RedisProtocol(),
                "PONG OK v 12 ERR value is not an integer or out of range OK3[v, null] 2", "redis.clients.jedis"),
        /** Jedis making its own sockets ({@code new Socket()} in its default factory): the JDK's in sync mode. */
        JEDIS_OWN_SOCKETS("flowtest.libraries.JedisOwnSockets", new dev.flow.samples.redis.RedisProtocol(),
                "PONG OK v 12 ERR value is not an integer or out of range OK3[v, null] 2", "redis.clients.jedis"),
        HTTPCLIENT5("flowtest.libraries.HttpClient5Client", new HttpProtocol(), null,
                "org.apache.hc.client5", "org.apache.hc.core5"),
        /** HttpClient 5's default connection manager, whose plain sockets are {@code new Socket()}. */
        HTTPCLIENT5_OWN_SOCKETS("flowtest.libraries.HttpClient5OwnSockets", new HttpProtocol(), null,
                "org.apache.hc.client5", "org.apache.hc.core5"),
        OKHTTP("flowtest.libraries.OkHttpSession", new HttpProtocol(), null, "okhttp3", "okio"),
        /**
         * Jedis making its own sockets to {@code localhost} by name: its socket factory looks the name up ({@code
         * InetAddress.getAllByName}) before every connect.
         */
        JEDIS_BY_NAME("flowtest.libraries.JedisOwnSockets", new dev.flow.samples.redis.RedisProtocol(),
                "PONG OK v 12 ERR value is not an integer or out of range OK3[v, null] 2", true, "redis.clients.jedis"),
        /** HttpClient 5 to {@code http://localhost:port}: its default resolver looks the name up for each connection. */
        HTTPCLIENT5_BY_NAME("flowtest.libraries.HttpClient5OwnSockets", new HttpProtocol(), null, true,
                "org.apache.hc.client5", "org.apache.hc.core5");

        final String className;
        final SampleProtocol protocol;
        final String expected;
        /** Whether the client is given the server's address as the name {@code localhost}, not as an IP literal. */
        final boolean byName;
        final String[] packages;

        Client(String className, SampleProtocol protocol, String expected, String... packages) {
            this(className, protocol, expected, false, packages);
        }

        Client(String className, SampleProtocol protocol, String expected, boolean byName, String... packages) {
            this.className = className;
            this.protocol = protocol;
            this.expected = expected;
            this.byName = byName;
            this.packages = packages;
        }

        /** Whether a pin warning names a class of this library or of the client code. */
        boolean packagesIn(String warning) {
            if (warning.contains("flowtest.libraries.")) {
                return true;
            }
            for (String p : packages) {
                if (warning.contains(p + ".")) {
                    return true;
                }
            }
            return false;
        }

        ContinuationClassLoader loader(boolean strict) {
            List<String> include = new ArrayList<>(List.of(packages));
            include.add("flowtest.libraries");
            return ContinuationClassLoader.builder().include(include.toArray(new String[0])).strict(strict).build();
        }
    }

    private static FlowConnector connector;

    @BeforeAll
    static void createConnector() {
        connector = FlowConnector.builder().ioProcessors(1).build();
    }

    @AfterAll
    static void closeConnector() {
        connector.close();
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void aLibraryGivesTheSameResultsInSyncAndContinuationModeStrictAndLenientAndSuspendsWithoutPinning(Client client)
            throws Exception {
        SampleServer server = SampleServer.start(client.protocol,
                LaunchOptions.parse(client.protocol.settings(), "--port", "0", "--mode", "continuation", "--workers", "2"));
        try {
            InetSocketAddress address = client.byName ? InetSocketAddress.createUnresolved("localhost", server.address().getPort())
                    : server.address();
            SocketFactory sockets = connector.socketFactory();
            Object sync = newClient(client, client.getClass().getClassLoader(), sockets, address, "s").call();
            if (client.expected != null) {
                assertEquals(client.expected, sync);
            }
            for (boolean strict : new boolean[] {false, true}) {
                int warningsBefore = Pins.warnings().size();
                long lookupsBefore = NameLookups.done();
                ContinuationClassLoader loader = client.loader(strict);
                try (FlowScheduler scheduler = FlowScheduler.builder().workers(2).policy(SuspendPolicy.immediately())
                        .name("bridge-" + client).build()) {
                    List<FlowHandle<?>> handles = new ArrayList<>();
                    for (int i = 0; i < SESSIONS; i++) {
                        handles.add(scheduler.submit(newClient(client, loader, sockets, address, "c" + i)));
                    }
                    for (FlowHandle<?> h : handles) {
                        assertEquals(sync, h.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS),
                                (strict ? "strict" : "lenient") + " session");
                    }
                    FlowStats stats = scheduler.stats();
                    List<String> pinned = Pins.warnings().subList(warningsBefore, Pins.warnings().size()).stream()
                            .filter(w -> client.packagesIn(w)).collect(Collectors.toList());
                    System.out.printf("%s %s: %d sessions, %d resumptions, %d pinned sites %s%n", client,
                            strict ? "strict" : "lenient", SESSIONS, stats.resumed(), pinned.size(), pinned);
                    assertTrue(stats.resumed() >= SESSIONS, "the flows suspended: " + stats);
                    assertEquals(List.of(), pinned, "pinned sites");
                    assertEquals(SESSIONS, stats.completed(), stats.toString());
                    long lookups = NameLookups.done() - lookupsBefore;
                    assertTrue(client.byName ? lookups >= SESSIONS : lookups == 0,
                            "the flows' name lookups on lookup threads: " + lookups);
                }
            }
        } finally {
            server.close();
            assertTrue(server.awaitIdle(Duration.ofSeconds(10)), "the server's sessions ended");
        }
    }

    private static Callable<?> newClient(Client client, ClassLoader loader, SocketFactory sockets,
            InetSocketAddress address, String id) throws Exception {
        if (loader instanceof ContinuationClassLoader) {
            return ((ContinuationClassLoader) loader).newInstance(Callable.class, client.className, sockets, address, id);
        }
        return (Callable<?>) Class.forName(client.className, true, loader)
                .getConstructor(SocketFactory.class, InetSocketAddress.class, String.class).newInstance(sockets, address, id);
    }
}
