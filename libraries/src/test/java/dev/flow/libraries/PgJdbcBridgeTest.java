package dev.flow.libraries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.SuspendPolicy;
import dev.flow.UnsuspendableFrameException;
import dev.flow.internal.Pins;
import dev.flow.loader.ContinuationClassLoader;
import flowtest.libraries.PgJdbcClient;
import flowtest.libraries.PgJdbcSelects;
import flowtest.libraries.PgJdbcSocketTimeout;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Unmodified pgjdbc against a real PostgreSQL ({@link PostgresServer}, started from Maven Central binaries),
 * its socket from {@code dev.flow.mina.FlowSocketFactory} named in the {@code socketFactory} property: loaded
 * normally on a plain thread (sync), and through a lenient and a strict {@code ContinuationClassLoader} as flows on
 * two workers. Every session sees the same results and errors; the queries suspend and pin nowhere. The connect
 * runs inside {@code new PgConnection(...)}, a constructor, where a flow cannot suspend: in a flow it pins
 * (lenient) or is refused by site (strict). A query outliving pgjdbc's {@code socketTimeout} fails as it does on
 * the JDK's socket.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PgJdbcBridgeTest {

    private static final int SESSIONS = 10;
    private static final String CLIENT = "flowtest.libraries.PgJdbcClient";
    private static final String SELECTS = "flowtest.libraries.PgJdbcSelects";
    private static final String TIMEOUT = "flowtest.libraries.PgJdbcSocketTimeout";

    private static PostgresServer postgres;
    private static String expected;
    /** One loader per mode, shared by the tests: each instruments the pgjdbc classes it loads, which takes seconds. */
    private static ContinuationClassLoader lenient;
    private static ContinuationClassLoader strict;

    @BeforeAll
    static void startPostgres() throws Exception {
        // TLS with GreenMail's self-signed key, which pgjdbc's sslmode=require does not verify.
        postgres = PostgresServer.start(50, GreenMailKeys.key());
        expected = new PgJdbcClient(postgres.jdbcUrl(), "s").call();
        lenient = loader(false);
        strict = loader(true);
    }

    @AfterAll
    static void stopPostgres() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void aSyncSessionSeesTheServersResultsAndErrors() {
        assertEquals("111111 | ID-1=1.25 ID-2=2.25 ID-3=3.25 ID-4=4.25 ID-5=5.25 ID-6=6.25 ID-3=3.25 ID-4=4.25 "
                + "ID-5=5.25 ID-6=6.25 ID-5=5.25 ID-6=6.25 | 6 7 30.27 1,2,3,4,5,6,seven | 111 | "
                + "org.postgresql.util.PSQLException 42601 ERROR: syntax error at or near \"selec\"   Position: 1; "
                + "org.postgresql.util.PSQLException 23505 ERROR: duplicate key value violates unique constraint "
                + "\"items_pkey\"   Detail: Key (id)=(1) already exists.; "
                + "org.postgresql.util.PSQLException 22012 ERROR: division by zero; "
                + "org.postgresql.util.PSQLException 25P02 ERROR: current transaction is aborted, commands ignored until "
                + "end of transaction block; 7 30.27 1,2!,3,4!,5,6!,seven", expected);
    }

    @Test
    void queriesGiveTheSameResultsAsFlowsStrictAndLenientSuspendAndPinNowhere() throws Exception {
        runInFlows(CLIENT, expected, true);
    }

    /**
     * With no {@code socketFactory} property pgjdbc takes {@code SocketFactory.getDefault()} in its own code: the
     * JDK's loaded normally, Flow's when loaded, so the queries suspend all the same.
     */
    @Test
    void withNoSocketFactoryPropertyTheLoadedDriversDefaultSocketsAreFlowsAndQueriesSuspendAndPinNowhere()
            throws Exception {
        runInFlows(CLIENT, expected, false);
    }

    /**
     * With {@code sslmode=require} pgjdbc layers TLS over its socket itself ({@code LibPQFactory}: {@code
     * sslContext.getSocketFactory()}, then {@code createSocket(socket, host, port, true)} and {@code startHandshake()});
     * loaded, over Flow's socket, that is Flow's TLS socket, whose queries suspend like the plain ones.
     */
    @Test
    void withSslmodeRequireTheLoadedDriverLayersFlowsTlsAndQueriesSuspendAndPinNowhere() throws Exception {
        String url = postgres.jdbcUrl() + "?sslmode=require";
        String ssl = "select ssl from pg_stat_ssl where pid = pg_backend_pid()";
        try (Connection c = PgJdbcClient.connect(url, false); Statement s = c.createStatement();
             ResultSet r = s.executeQuery(ssl)) {
            assertTrue(r.next() && r.getBoolean(1), "loaded normally, the connection uses TLS");
        }
        assertEquals(expected, new PgJdbcClient(url, "s").call(), "loaded normally, over TLS");
        Connection loaded = (Connection) lenient.loadClass(CLIENT).getMethod("connect", String.class, boolean.class)
                .invoke(null, url, false);
        try (loaded; Statement s = loaded.createStatement(); ResultSet r = s.executeQuery(ssl)) {
            assertTrue(r.next() && r.getBoolean(1), "loaded, the connection uses TLS");
        }
        runInFlows(CLIENT, expected, false, url);
    }

    @Test
    void selectsThatChangeNoCatalogGiveTheSameResultsAsFlowsStrictAndLenientSuspendAndPinNowhere() throws Exception {
        String sync = new PgJdbcSelects(PgJdbcClient.connect(postgres.jdbcUrl(), false), "s").call();
        String series = "1ID-1=1.25 2ID-2=2.50 1ID-1=1.25 2ID-2=2.50 3ID-3=3.75 1ID-1=1.25 2ID-2=2.50 3ID-3=3.75 "
                + "4ID-4=5.00 1ID-1=1.25 ";
        assertEquals(series + series + series + "| 3.5 7 10.5 7,14 | 1/0 3/3 5/6 7/9 9/12 11/15 | "
                + "org.postgresql.util.PSQLException 42601 ERROR: syntax error at or near \"selec\"   Position: 1; "
                + "org.postgresql.util.PSQLException 22012 ERROR: division by zero; "
                + "org.postgresql.util.PSQLException 25P02 ERROR: current transaction is aborted, commands ignored until "
                + "end of transaction block; 35.0 7,14,21,28", sync);
        runInFlows(SELECTS, sync, true);
    }

    /**
     * Runs {@value #SESSIONS} sessions of {@code client} over connections opened beforehand, lenient then strict,
     * with the {@code socketFactory} property naming Flow's factory ({@code property}) or without it.
     */
    private static void runInFlows(String client, String expected, boolean property) throws Exception {
        runInFlows(client, expected, property, postgres.jdbcUrl());
    }

    /** {@link #runInFlows(String, String, boolean)} over connections to {@code url}. */
    private static void runInFlows(String client, String expected, boolean property, String url) throws Exception {
        for (boolean strict : new boolean[] {false, true}) {
            ContinuationClassLoader loader = strict ? PgJdbcBridgeTest.strict : lenient;
            // Connected on this plain thread (as sync code: a strict loader refuses a connect only inside a flow).
            List<Connection> connections = new ArrayList<>();
            for (int i = 0; i < SESSIONS; i++) {
                connections.add((Connection) loader.loadClass(CLIENT).getMethod("connect", String.class, boolean.class)
                        .invoke(null, url, property));
            }
            int warningsBefore = Pins.warnings().size();
            try (FlowScheduler scheduler = scheduler("pgjdbc-queries")) {
                List<FlowHandle<?>> handles = new ArrayList<>();
                for (int i = 0; i < SESSIONS; i++) {
                    handles.add(scheduler.submit(loader.newInstance(Callable.class, client, connections.get(i), "c" + i)));
                }
                for (FlowHandle<?> h : handles) {
                    assertEquals(expected, h.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS), mode(strict));
                }
                FlowStats stats = scheduler.stats();
                List<String> pinned = pgjdbcWarningsSince(warningsBefore);
                System.out.printf("%s %s: %d sessions, %d resumptions, pinned %s%n", client, mode(strict), SESSIONS,
                        stats.resumed(), pinned);
                assertTrue(stats.resumed() >= SESSIONS, "the flows suspended: " + stats);
                assertEquals(List.of(), pinned, "pinned sites");
                assertEquals(SESSIONS, stats.completed(), stats.toString());
            }
        }
    }

    @Test
    void aQueryOutlivingTheSocketTimeoutFailsAsOnAJdkSocketInSyncModeAndInFlows() throws Exception {
        String url = postgres.jdbcUrl() + "?socketTimeout=1";
        String jdk = new PgJdbcSocketTimeout(PgJdbcClient.connect(url, false), 3.0).call();
        assertTrue(jdk.contains("java.net.SocketTimeoutException"), jdk);
        assertEquals(jdk, new PgJdbcSocketTimeout(PgJdbcClient.connect(url, true), 3.0).call(), "sync, Flow's socket");
        for (ContinuationClassLoader loader : List.of(lenient, strict)) {
            List<Connection> connections = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                connections.add((Connection) loader.loadClass(CLIENT).getMethod("connect", String.class).invoke(null, url));
            }
            int warningsBefore = Pins.warnings().size();
            try (FlowScheduler scheduler = scheduler("pgjdbc-timeout")) {
                List<FlowHandle<?>> handles = new ArrayList<>();
                for (Connection c : connections) {
                    handles.add(scheduler.submit(loader.newInstance(Callable.class, TIMEOUT, c, 3.0)));
                }
                for (FlowHandle<?> h : handles) {
                    assertEquals(jdk, h.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS),
                            mode(loader.isStrict()));
                }
                assertEquals(List.of(), pgjdbcWarningsSince(warningsBefore), "pinned sites");
            }
        }
    }

    @Test
    void aConnectInsideALenientFlowPinsOnlyInPgjdbcsConstructors() throws Exception {
        ContinuationClassLoader loader = lenient;
        int warningsBefore = Pins.warnings().size();
        try (FlowScheduler scheduler = scheduler("pgjdbc-connect")) {
            List<FlowHandle<?>> handles = new ArrayList<>();
            for (int i = 0; i < SESSIONS; i++) {
                handles.add(scheduler.submit(loader.newInstance(Callable.class, CLIENT, postgres.jdbcUrl(), "c" + i)));
            }
            for (FlowHandle<?> h : handles) {
                assertEquals(expected, h.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS));
            }
            List<String> pinned = pgjdbcWarningsSince(warningsBefore);
            System.out.printf("pgjdbc connect lenient: %s, pinned %s%n", scheduler.stats(), pinned);
            assertTrue(scheduler.stats().resumed() >= SESSIONS, "the queries suspended: " + scheduler.stats());
            assertTrue(!pinned.isEmpty(), "the connect pinned");
            for (String w : pinned) {
                assertTrue(w.contains(Pins.Reason.CONSTRUCTOR.text()), "a constructor site: " + w);
            }
        }
    }

    @Test
    void aConnectInsideAStrictFlowIsRefusedByTheConstructorSite() throws Exception {
        ContinuationClassLoader loader = strict;
        try (FlowScheduler scheduler = scheduler("pgjdbc-strict-connect")) {
            FlowHandle<?> h = scheduler.submit(loader.newInstance(Callable.class, CLIENT, postgres.jdbcUrl(), "c"));
            try {
                h.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
                fail("a strict flow connected inside a constructor");
            } catch (ExecutionException e) {
                assertTrue(e.getCause() instanceof java.sql.SQLException, "pgjdbc's exception: " + e.getCause());
                Throwable refusal = e.getCause();
                while (refusal != null && !(refusal instanceof UnsuspendableFrameException)) {
                    refusal = refusal.getCause();
                }
                assertTrue(refusal != null, "refused: " + e.getCause());
                assertTrue(refusal.getMessage().contains(Pins.Reason.CONSTRUCTOR.text()), refusal.getMessage());
            }
        }
    }

    private static ContinuationClassLoader loader(boolean strict) {
        return ContinuationClassLoader.builder().include("org.postgresql", "flowtest.libraries").strict(strict).build();
    }

    private static FlowScheduler scheduler(String name) {
        return FlowScheduler.builder().workers(2).policy(SuspendPolicy.immediately()).name(name).build();
    }

    private static String mode(boolean strict) {
        return strict ? "strict" : "lenient";
    }

    private static List<String> pgjdbcWarningsSince(int index) {
        List<String> all = Pins.warnings();
        return all.subList(index, all.size()).stream()
                .filter(w -> w.contains("org.postgresql.") || w.contains("flowtest.libraries."))
                .collect(Collectors.toList());
    }
}
