package dev.flow.samples.routes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.maven.SampleBuildTime;
import dev.flow.samples.http.HttpProtocol;
import dev.flow.samples.launcher.SampleProtocol;
import dev.flow.samples.redis.RedisProtocol;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;

/**
 * The HTTP and Redis samples in continuation mode through each route, each in a JVM of its own: the
 * {@code ContinuationClassLoader} (the launcher's default), the agent ({@code -javaagent:flow-agent.jar=include=
 * <the sample's packages>}) and build-time instrumentation (the classes rewritten as the {@code instrument}
 * goal does, run with only Flow's runtime jars: no agent, no flow-classloader, no ASM). Each is driven by the
 * client the sample's own tests use (the JDK's {@link HttpClient}, Jedis), then stopped with SIGTERM: it must
 * have served every request, as flows that suspended and were resumed, with no pinned site and no failed flow.
 * And the HTTP sample as one executable jar that starts the agent itself.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SampleRoutesJvmTest {

    private static final Duration START = Duration.ofSeconds(60);
    private static final Pattern RESUMED = Pattern.compile("resumed=([0-9]+)");

    @TempDir
    Path dir;

    private SampleJvm jvm;

    @AfterEach
    void stopTheJvm() throws InterruptedException {
        if (jvm != null) {
            jvm.close();
        }
    }

    @ParameterizedTest(name = "{0} through the {1}")
    @CsvSource({"http, loader", "http, agent", "http, build-time", "redis, loader", "redis, agent", "redis, build-time"})
    void theSampleServesItsRealClientAsSuspendingFlowsWithoutPins(String sample, String route) throws Exception {
        SampleProtocol protocol = sample.equals("http") ? new HttpProtocol() : new RedisProtocol();
        String main = sample.equals("http") ? "dev.flow.samples.http.HttpServer" : "dev.flow.samples.redis.RedisServer";
        List<String> cmd = new ArrayList<>(List.of("-Xmx128m"));
        switch (route) {
            case "loader":
                cmd.addAll(List.of("-cp", Routes.loaderClassPath()));
                break;
            case "agent":
                cmd.add("-javaagent:" + Routes.jar("flow.agent.jar") + "=include=" + String.join(",", protocol.loadedPackages()));
                cmd.addAll(List.of("-cp", Routes.runtimeClassPath()));
                break;
            default:
                Path classes = dir.resolve("classes");
                assertEquals(List.of(), SampleBuildTime.instrument(protocol.loadedPackages(), classes, dir.resolve("originals")));
                cmd.addAll(List.of("-cp", classes + File.pathSeparator + Routes.runtimeClassPath()));
                break;
        }
        cmd.addAll(List.of(main, "--port", "0", "--mode", "continuation", "--workers", "2"));
        jvm = SampleJvm.start(cmd, dir.resolve("jvm.log"));
        int port = jvm.awaitPort(START);
        String expectedRoute = route.equals("loader") ? "route: ContinuationClassLoader"
                : "route: instrumented before loading (agent or build time)";
        assertNotNull(jvm.awaitLine(expectedRoute, Duration.ZERO), jvm.output());

        if (sample.equals("http")) {
            driveHttp(port);
            assertServedAsFlowsWithoutPins(jvm);
        } else {
            // Stopped while Jedis is connected and idle, as the HTTP client's pooled connection is: Jedis closes with
            // a reset (SO_LINGER 0), which fails the session's flow if it comes before the stop.
            try (Jedis j = new Jedis("127.0.0.1", port, 10_000)) {
                driveRedis(j);
                assertServedAsFlowsWithoutPins(jvm);
            }
        }
    }

    /**
     * The HTTP sample as one executable jar ({@code target/http-server-all.jar}): {@code java -jar
     * http-server-all.jar --mode continuation} alone starts the agent ({@code Launcher-Agent-Class}, its
     * argument in the {@code Flow-Agent} manifest attribute), which instruments the sample's classes.
     */
    @Test
    void theExecutableJarAloneRunsTheHttpSampleInstrumentedByTheAgent() throws Exception {
        jvm = SampleJvm.start(List.of("-Xmx128m", "-jar", Routes.jar("flow.fat.jar"), "--port", "0", "--mode", "continuation",
                "--workers", "2"), dir.resolve("jvm.log"));
        int port = jvm.awaitPort(START);
        assertNotNull(jvm.awaitLine("flow-agent: include=dev.flow.samples.http.protocol,dev.flow.samples.wire: ", Duration.ZERO),
                jvm.output());
        assertNotNull(jvm.awaitLine("route: instrumented before loading (agent or build time)", Duration.ZERO), jvm.output());
        driveHttp(port);
        assertServedAsFlowsWithoutPins(jvm);
    }

    /** Stops {@code jvm} with SIGTERM and checks its last words: a clean stop, flows resumed, none failed, no pin. */
    private static void assertServedAsFlowsWithoutPins(SampleJvm jvm) throws InterruptedException {
        assertEquals(0, jvm.stop(Duration.ofSeconds(30)), jvm.output());
        String stopped = jvm.awaitLine("stopped: every session ended", Duration.ZERO);
        assertNotNull(stopped, jvm.output());
        Matcher resumed = RESUMED.matcher(stopped);
        assertTrue(resumed.find() && Long.parseLong(resumed.group(1)) > 0, () -> "no flow resumed: " + stopped);
        assertTrue(stopped.contains("FlowStats[") && stopped.contains(", failed=0, resumed=")
                && stopped.contains("active=0, running=0, suspended=0, queued=0"), stopped);
        assertTrue(stopped.contains("SessionStats[") && stopped.contains(", failed=0,"), stopped);
        assertEquals(List.of(), jvm.lines().stream().filter(l -> l.contains("cannot suspend") || l.contains("flow-agent: refused")
                || l.contains("left uninstrumented")).collect(java.util.stream.Collectors.toList()));
    }

    /** GET /, GET /sleep and POST /echo on one keep-alive connection of the JDK's client. */
    private static void driveHttp(int port) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10))
                .build();
        byte[] body = new byte[100_000];
        new Random(3).nextBytes(body);
        for (int i = 0; i < 10; i++) {
            HttpResponse<String> hello = client.send(request(port, "/").build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, hello.statusCode());
            assertEquals("Hello from Flow\n", hello.body());
            HttpResponse<String> slept = client.send(request(port, "/sleep?ms=5").build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, slept.statusCode());
            assertEquals("slept 5 ms\n", slept.body());
            HttpResponse<byte[]> echo = client.send(request(port, "/echo").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, echo.statusCode());
            assertArrayEquals(body, echo.body());
        }
    }

    private static HttpRequest.Builder request(int port, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(30));
    }

    /** Commands one by one and pipelined, from Jedis. */
    private static void driveRedis(Jedis j) {
        assertEquals("PONG", j.ping());
        for (int i = 0; i < 20; i++) {
            assertEquals("OK", j.set("k" + i, "v" + i));
            assertEquals("v" + i, j.get("k" + i));
            assertEquals(i + 1L, j.incr("counter"));
        }
        Pipeline p = j.pipelined();
        List<Response<String>> got = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            p.set("p" + i, "w" + i);
            got.add(p.get("p" + i));
        }
        p.sync();
        for (int i = 0; i < 100; i++) {
            assertEquals("w" + i, got.get(i).get());
        }
    }
}
