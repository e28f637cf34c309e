package dev.flow.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Runs the load driver end to end at tiny scale (4 connections, about 5 s per run): the client
 * against a server JVM it spawns, in continuation mode and in MINA mode,
 * and checks that every validity check passes and the numbers are sane. Not a measurement.
 *
 * <p>The runs go side by side (three at a time, {@code junit-platform.properties}): each has its own server
 * process and client, and spends most of its time waiting for think times and the server. Each test method says
 * so, not the class: a class that says {@code CONCURRENT} runs beside the other test classes too, and the soak's
 * counts of this JVM's descriptors and threads then include these runs' processes (CI failed that way once).
 */
@Timeout(60)
class LoadDriverTest {

    private static LoadClient.Config tiny() {
        LoadClient.Config c = new LoadClient.Config();
        c.connections = 4;
        c.warmupS = 1;
        // A server stall that straddles the end of the warm-up is in neither R nor Z of the steady state
        // (Little's law check); 3 s of steady state keep a 300 ms stall under the 15% tolerance.
        c.steadyS = 3;
        c.rampdownS = 1;
        c.thinkMs = 10;
        c.progress = false;
        // The client's timers wake up to 1 ms late by design (epoll waits in whole ms); on a 2-core machine
        // shared with other builds that was 1.1-2.9 ms on average, over the default 1 ms floor. The check
        // still runs, at half the think time.
        c.thinkFloorMs = 5;
        return c;
    }

    /**
     * An echo run: every check of what was exchanged passes, as in {@link #assertValidProtocolRun}, and the numbers
     * obey what no machine can change: 4 connections that think 10 ms between a response and the next request
     * cannot exceed 400 requests/s nor think less than 10 ms, and the percentiles are ordered. How far below
     * 400/s the run stays, and how much longer than 10 ms a think takes, depend on the CPU the machine gives the
     * run: at a load average of 17 (6 busy loops beside the suite) the continuation run made 190.7 and 193.7
     * requests/s, under the 200/s this test once required. The timing checks stay in the report and judge the
     * benchmarks ({@code LoadResultTest} checks their verdicts).
     */
    private static void assertSane(LoadResult r, LoadClient.Config c) {
        assertTrue(r.checks.stream().filter(k -> !TIMING_CHECKS.contains(k.name)).allMatch(k -> k.passed), r::report);
        assertEquals(c.connections, r.connected, r::report);
        assertEquals(c.connections, r.aliveAtEnd, r::report);
        assertTrue(r.errors.isEmpty(), () -> "errors: " + r.errors);
        // 4 connections with 10 ms think: at most 4 / 10 ms = 400/s
        assertTrue(r.throughput > 0 && r.throughput < 420, () -> "throughput " + r.throughput + "\n" + r.report());
        assertTrue(r.p50Ms > 0 && r.p50Ms <= r.p90Ms && r.p90Ms <= r.p99Ms && r.p99Ms <= r.p999Ms
                && r.p999Ms <= r.maxMs, r::report);
        assertTrue(r.actualThinkMs >= 9.9, () -> "think " + r.actualThinkMs + " ms (intended: 10 ms)\n" + r.report());
        assertTrue(r.perConnMin > 0, r::report);
        assertEquals(7, r.checks.size(), r::report);
        String csv = r.csv("test", 1);
        assertEquals(LoadResult.csvHeader().split(",").length, csv.split(",", LoadResult.csvHeader().split(",").length).length);
    }

    /**
     * Waits (up to 30 s) for the server's first echo before a run: the continuation server loads and
     * instruments its handler on the first session, which at a load average of 19 left a 1 s warm-up, the 3 s
     * steady state and the ramp-down without a single response (4 requests unanswered at the end).
     */
    private static void awaitFirstEcho(int port) throws java.io.IOException {
        try (java.net.Socket s = new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write("0 0 first\n".getBytes(StandardCharsets.US_ASCII));
            java.io.BufferedReader in = new java.io.BufferedReader(
                    new java.io.InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
            assertEquals("0 0 first", in.readLine(), "the server's first echo");
        }
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void continuationServerInItsOwnJvm() throws Exception {
        LoadResult r = saneEchoRun(Mode.CONTINUATION_IMMEDIATELY, "continuation-immediately");
        assertTrue(r.serverThreads > 0 && r.serverRssMb > 10, r::report);
        assertTrue(r.serverCpuUsPerRequest > 0, r::report);
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void minaServerInItsOwnJvm() throws Exception {
        saneEchoRun(Mode.MINA, "mina");
    }

    /**
     * A {@link #tiny()} echo run against a server JVM in {@code mode}, once it has echoed a first line; checked
     * with {@link #assertSane} and returned, named {@code name}.
     */
    private static LoadResult saneEchoRun(Mode mode, String name) throws Exception {
        LoadClient.Config c = tiny();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
        try (ServerProcess sp = ServerProcess.start(mode, 2, null, "-Xmx256m", out)) {
            assertNotNull(sp);
            awaitFirstEcho(sp.port());
            LoadResult r = LoadClient.run(c, sp.port(), sp.pid(), out);
            r.mode = name;
            assertSane(r, c);
            return r;
        }
    }

    /**
     * Each protocol against a sample server in a mode, or against the hand-written Netty baseline: HTTP
     * keep-alive, pipelined RESP SET/GET (8 deep), SMTP messages, RESP PING on virtual threads where the JDK
     * has them.
     */
    @ParameterizedTest(name = "{1}, pipeline {2}, against the {0} server")
    @Execution(ExecutionMode.CONCURRENT)
    @CsvSource({
        "CONTINUATION_IMMEDIATELY, HTTP, 1",
        "SYNC, RESP_SETGET, 8",
        "CONTINUATION_IMMEDIATELY, SMTP, 1",
        "VIRTUAL, RESP_PING, 1",
        "NETTY, HTTP, 1",
        "NETTY, RESP_SETGET, 8"})
    void aProtocolRunAgainstTheServerIsValid(Mode mode, LoadProtocol protocol, int pipeline) throws Exception {
        LoadClient.Config c = protocolRun(mode, protocol, pipeline, Handlers.SAMPLES);
        assertValidProtocolRun(runAgainst(mode, c, new ByteArrayOutputStream()), c);
    }

    /** A {@link #tiny()} run of {@code protocol} served by {@code handlers}; the test is skipped where {@code mode} cannot run. */
    private static LoadClient.Config protocolRun(Mode mode, LoadProtocol protocol, int pipeline, Handlers handlers) {
        org.junit.jupiter.api.Assumptions.assumeTrue(mode.unavailableReason() == null,
                () -> "SKIPPED: " + mode.unavailableReason());
        LoadClient.Config c = tiny();
        c.protocol = protocol;
        c.pipeline = pipeline;
        c.handlers = handlers;
        return c;
    }

    /**
     * A protocol run: every check of what was exchanged passes (responses, errors, fairness), no connection
     * lost, no error. The checks of timing (think time kept, Little's law, ramp-down within its wait, the
     * client not saturated) judge whether a measurement may be quoted; on a machine loaded by other work they
     * fail for reasons outside the driver (a 5 ms think time was seen taking 670 ms at load 30), so this
     * functional test reports them and leaves them to the benchmarks.
     */
    private static void assertValidProtocolRun(LoadResult r, LoadClient.Config c) {
        assertTrue(r.checks.stream().filter(k -> !TIMING_CHECKS.contains(k.name)).allMatch(k -> k.passed), r::report);
        assertEquals(c.connections, r.aliveAtEnd, r::report);
        assertTrue(r.errors.isEmpty(), () -> "errors: " + r.errors);
        assertTrue(r.requests > 100, r::report);
    }

    /** The validity checks that depend on how much CPU the machine gives the run, not on what was exchanged. */
    private static final java.util.Set<String> TIMING_CHECKS = java.util.Set.of("think time", "little's law",
            "ramp-down", "client not saturated", "send lateness");

    /**
     * HTTP and RESP against the plain handlers ({@code PlainHttp}, {@code PlainResp}: one flush per response)
     * in each mode that runs them: every response checked by the driver, none missing, the server's {@code
     * LISTENING} line naming the plain class. The continuation servers load them strict, so a wait that
     * pinned would fail its session, and the run with it.
     */
    @ParameterizedTest(name = "{1}, pipeline {2}, against the plain handler in the {0} server")
    @Execution(ExecutionMode.CONCURRENT)
    @CsvSource({
        "SYNC, HTTP, 1",
        "CONTINUATION_IMMEDIATELY, HTTP, 1",
        "VIRTUAL, HTTP, 1",
        "CONTINUATION_IMMEDIATELY, RESP_SETGET, 8",
        "CONTINUATION_IO, RESP_PING, 16"})
    void aProtocolRunAgainstThePlainHandlerIsValid(Mode mode, LoadProtocol protocol, int pipeline) throws Exception {
        LoadClient.Config c = protocolRun(mode, protocol, pipeline, Handlers.PLAIN);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        LoadResult r = runAgainst(mode, c, log);
        assertValidProtocolRun(r, c);
        String plain = protocol == LoadProtocol.HTTP ? "PlainHttp" : "PlainResp";
        String text = log.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains(" handler=dev.flow.bench.load.handlers." + plain), text);
    }

    /** A protocol run of {@code c} against a server JVM in {@code mode}; the server's output goes to {@code log}. */
    private static LoadResult runAgainst(Mode mode, LoadClient.Config c, ByteArrayOutputStream log) throws Exception {
        c.thinkMs = 5;
        // The sample servers instrument their handler on the first requests: at a load average of 15 the
        // SMTP sample answered 12 messages in its first 5 s, which left one connection without a message in
        // a 1 s warm-up's steady state (the fairness check) and 8 requests in all.
        c.warmupS = 4;
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
        try (ServerProcess sp = ServerProcess.start(mode, c.protocol.server(), c.handlers, 2, null, "-Xmx256m", out)) {
            assertNotNull(sp);
            LoadResult r = LoadClient.run(c, sp.port(), sp.pid(), out);
            r.mode = mode.id() + " " + c.protocol.id();
            return r;
        }
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void theHandlersOptionRefusesAnUnknownValueNamingIt() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> LoadClient.config(new Args(new String[] {"--protocol=http", "--handlers=tuned"})));
        assertEquals("handlers: tuned (expected: samples, samples-strict, plain or plain-lenient)", e.getMessage());
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void theSamplesLoadLenientAndSamplesStrictLoadsThemStrict() {
        for (String protocol : List.of("http", "redis", "smtp")) {
            LoadServer.Served lenient = LoadServer.Served.of(protocol, Handlers.SAMPLES);
            LoadServer.Served strict = LoadServer.Served.of(protocol, Handlers.SAMPLES_STRICT);
            assertFalse(lenient.strict(), protocol);
            assertTrue(strict.strict(), protocol);
            assertEquals(lenient.handlerClass(), strict.handlerClass(), protocol);
        }
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void thePlainHandlersLoadStrictAndPlainLenientLoadsThemLenient() {
        for (String protocol : List.of("http", "redis")) {
            LoadServer.Served strict = LoadServer.Served.of(protocol, Handlers.PLAIN);
            LoadServer.Served lenient = LoadServer.Served.of(protocol, Handlers.PLAIN_LENIENT);
            assertTrue(strict.strict(), protocol);
            assertFalse(lenient.strict(), protocol);
            assertEquals(strict.handlerClass(), lenient.handlerClass(), protocol);
            assertTrue(lenient.handlerClass().contains(".Plain"), lenient.handlerClass());
        }
    }

    /** The SMTP sample loaded strict: a wait that pinned would fail its session, and the run with it. */
    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void aProtocolRunAgainstTheSmtpSampleLoadedStrictIsValid() throws Exception {
        LoadClient.Config c = protocolRun(Mode.CONTINUATION_IMMEDIATELY, LoadProtocol.SMTP, 1, Handlers.SAMPLES_STRICT);
        assertValidProtocolRun(runAgainst(Mode.CONTINUATION_IMMEDIATELY, c, new ByteArrayOutputStream()), c);
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void aBrokenServerFailsTheRunLoudly() throws Exception {
        // a server that answers with the wrong line: the mismatch must make the run invalid
        try (java.net.ServerSocket ss = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                try (java.net.Socket s = ss.accept()) {
                    java.io.BufferedReader in = new java.io.BufferedReader(
                            new java.io.InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                    while (in.readLine() != null) {
                        s.getOutputStream().write("wrong\n".getBytes(StandardCharsets.UTF_8));
                    }
                } catch (java.io.IOException e) {
                    // the client closed
                }
            });
            t.setDaemon(true);
            t.start();
            LoadClient.Config c = tiny();
            c.connections = 1;
            c.steadyS = 0.5;
            c.warmupS = 0.2;
            LoadResult r = LoadClient.run(c, ss.getLocalPort(), -1, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            r.mode = "broken";
            assertTrue(!r.valid(), r::report);
            assertTrue(r.report().contains("INVALID RUN"), r::report);
            assertTrue(r.errors.keySet().stream().anyMatch(k -> k.startsWith("mismatch")), r::report);
        }
    }
}
