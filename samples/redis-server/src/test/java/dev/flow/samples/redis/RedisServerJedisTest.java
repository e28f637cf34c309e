package dev.flow.samples.redis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.samples.launcher.LaunchOptions;
import dev.flow.samples.launcher.SampleServer;
import dev.flow.samples.launcher.SampleTests;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.SetParams;

/** The RESP sample against Jedis, a Redis client no one here wrote, in sync and continuation mode. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RedisServerJedisTest {

    private SampleServer server;

    private SampleServer start(String mode, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of("--port", "0", "--mode", mode));
        args.addAll(List.of(more));
        server = SampleServer.start(new RedisProtocol(),
                LaunchOptions.parse(new RedisProtocol().settings(), args.toArray(new String[0])));
        return server;
    }

    private Jedis jedis() {
        return new Jedis("127.0.0.1", server.address().getPort(), 10_000);
    }

    @AfterEach
    void countersBackToZero() throws InterruptedException {
        if (server != null) {
            SampleTests.closeAndCheck(server, true);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation"})
    void commandsBehaveAsJedisExpects(String mode) throws Exception {
        start(mode);
        try (Jedis j = jedis()) {
            assertEquals("PONG", j.ping());
            assertEquals("hi there", j.echo("hi there"));
            assertEquals("OK", j.set("k", "v1"));
            assertEquals("v1", j.get("k"));
            assertNull(j.get("missing"));
            assertEquals(1L, j.incr("counter"));
            assertEquals(2L, j.incr("counter"));
            JedisDataException notInt = assertThrows(JedisDataException.class, () -> j.incr("k"));
            assertEquals("ERR value is not an integer or out of range", notInt.getMessage());
            assertEquals(List.of("v1", "2"), j.mget("k", "counter").subList(0, 2));
            assertNull(j.mget("k", "counter", "nope").get(2));
            assertEquals(2L, j.exists("k", "counter", "nope"));
            assertEquals(1L, j.del("k", "nope"));
            assertNull(j.get("k"));
            assertEquals("OK", j.set("short", "x", SetParams.setParams().px(50)));
            assertEquals("OK", j.set("long", "y", SetParams.setParams().ex(100)));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (j.get("short") != null && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertNull(j.get("short"));
            assertEquals("y", j.get("long"));
            JedisDataException unknown = assertThrows(JedisDataException.class,
                    () -> j.sendCommand(() -> "NOSUCH".getBytes(StandardCharsets.US_ASCII), "a"));
            assertEquals("ERR unknown command 'NOSUCH', with args beginning with: 'a' ", unknown.getMessage());
            JedisDataException badExpire = assertThrows(JedisDataException.class,
                    () -> j.set("e", "v", SetParams.setParams().ex(0)));
            assertEquals("ERR invalid expire time in 'set' command", badExpire.getMessage());
            assertEquals("OK", new String((byte[]) j.sendCommand(() -> "QUIT".getBytes(StandardCharsets.US_ASCII)),
                    StandardCharsets.US_ASCII));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation"})
    void pipelinedCommandsAllGetTheirReplies(String mode) throws Exception {
        start(mode);
        int n = 20_000;
        try (Jedis j = jedis()) {
            Pipeline p = j.pipelined();
            List<Response<String>> sets = new ArrayList<>();
            List<Response<Long>> incrs = new ArrayList<>();
            List<Response<String>> gets = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                sets.add(p.set("key:" + i, "value:" + i));
                incrs.add(p.incr("pipelined"));
                gets.add(p.get("key:" + i));
            }
            p.sync();
            for (int i = 0; i < n; i++) {
                assertEquals("OK", sets.get(i).get());
                assertEquals(i + 1L, incrs.get(i).get());
                assertEquals("value:" + i, gets.get(i).get());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation"})
    void bigValuesRoundTripByteForByte(String mode) throws Exception {
        start(mode);
        byte[] big = new byte[8 << 20];
        new Random(42).nextBytes(big);
        try (Jedis j = jedis()) {
            assertEquals("OK", j.set("big".getBytes(StandardCharsets.US_ASCII), big));
            assertArrayEquals(big, j.get("big".getBytes(StandardCharsets.US_ASCII)));
            assertEquals("PONG", j.ping());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation"})
    void garbageInputClosesOnlyThatSession(String mode) throws Exception {
        start(mode);
        try (Jedis other = jedis()) {
            assertEquals("OK", other.set("survivor", "yes"));
            assertEquals("-ERR Protocol error: invalid multibulk length 'abc'\r\n", SampleTests.rawExchange(server, "*abc\r\n"));
            assertEquals("-ERR Protocol error: expected '$', got 'G'\r\n", SampleTests.rawExchange(server, "*1\r\nGET\r\n"));
            assertEquals("-ERR Protocol error: bulk string of 3 bytes not followed by CRLF\r\n",
                    SampleTests.rawExchange(server, "*1\r\n$3\r\nPINGPONG\r\n"));
            assertEquals("yes", other.get("survivor"));
        }
    }

    @Test
    void requestsOverTheConfiguredLimitsGetAnErrorAndCloseTheSession() throws Exception {
        start("continuation", "--max-bulk-bytes", "1024", "--max-multibulk", "4", "--max-inline-bytes", "64");
        try (Jedis j = jedis()) {
            assertEquals("OK", j.set("fits", "x".repeat(1024)));
            assertEquals("-ERR Protocol error: bulk length 1025 (expected: 0..1024)\r\n",
                    SampleTests.rawExchange(server, "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1025\r\n"));
            assertEquals("-ERR Protocol error: multibulk length 5 (expected: <= 4)\r\n", SampleTests.rawExchange(server, "*5\r\n"));
            assertEquals("-ERR Protocol error: too big inline request (expected: <= 64 bytes)\r\n",
                    SampleTests.rawExchange(server, "PING " + "x".repeat(100) + "\r\n"));
            JedisDataException tooMany = assertThrows(JedisDataException.class, () -> j.del("a", "b", "c", "d"));
            assertEquals("ERR Protocol error: multibulk length 5 (expected: <= 4)", tooMany.getMessage());
        }
        try (Jedis j = jedis()) {
            assertEquals(1024, j.get("fits").length());
        }
    }

    /**
     * {@link SampleTests#rawExchange}, where a reset counts as no answer: the sample's clients speak first, so
     * a connection over {@code maxSessions} is closed on the acceptor, and a request already sent and never
     * read makes the close a reset (TCP's rule for unread input), not an end of stream.
     */
    private static String unansweredOrReset(SampleServer server, String request) throws IOException {
        try {
            return SampleTests.rawExchange(server, request);
        } catch (SocketException e) {
            if (String.valueOf(e.getMessage()).contains("reset")) {
                return "";
            }
            throw e;
        }
    }

    @Test
    void sessionsOverMaxSessionsAreClosedAtOnceAndTheOthersKeepWorking() throws Exception {
        start("continuation", "--max-sessions", "2");
        try (Jedis a = jedis(); Jedis b = jedis()) {
            assertEquals("PONG", a.ping());
            assertEquals("PONG", b.ping());
            assertEquals("", unansweredOrReset(server, "PING\r\n"), "a third session is closed unanswered");
            assertEquals(1, server.sessionStats().rejected(), server.sessionStats()::toString);
            assertEquals("PONG", a.ping());
            assertEquals("PONG", b.ping());
        }
    }

    @Test
    void thousandConcurrentConnectionsOnTwoWorkers() throws Exception {
        start("continuation", "--workers", "2");
        int connections = 1000;
        List<Jedis> clients = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(32);
        try {
            for (int i = 0; i < connections; i++) {
                Jedis j = jedis();
                clients.add(j);
                j.connect();
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (server.openSessions() < connections && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(connections, server.openSessions());
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                Jedis j = clients.get(i);
                String key = "conn:" + i;
                done.add(pool.submit(() -> {
                    for (int r = 0; r < 5; r++) {
                        assertEquals("OK", j.set(key, "round " + r));
                        assertEquals("round " + r, j.get(key));
                    }
                    j.incr("total");
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
            assertEquals(2, server.options().workers());
            try (Jedis j = jedis()) {
                assertEquals(String.valueOf(connections), j.get("total"));
            }
        } finally {
            pool.shutdownNow();
            for (Jedis j : clients) {
                j.close();
            }
        }
    }
}
