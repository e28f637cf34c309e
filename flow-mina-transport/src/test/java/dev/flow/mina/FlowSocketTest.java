package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.UnsuspendableFrameException;
import dev.flow.loader.ContinuationClassLoader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import javax.net.SocketFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The socket contract of {@link FlowSocketFactory}'s sockets: each scenario of {@code flowtest.mina.SocketOps}
 * (plain {@code java.net.Socket} code) runs on a plain thread loaded normally (sync) and as a flow loaded
 * through a strict loader (continuation), against a JDK peer; the transcripts are identical, and the same
 * scenarios run with the JDK's own sockets give them too, but for the differences {@link FlowSocketFactory}
 * documents ({@link #JDK_DIFFERENCES}).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FlowSocketTest {

    private static final ContinuationClassLoader STRICT = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(true).build();

    private static ServerSocket server;
    private static Thread acceptor;
    /**
     * When the peer may send a reply: at once for a plain thread; for a flow, once a flow is suspended
     * (the client is then waiting for it), so that a flow that reads a reply always waits for it and the
     * scenario shows a suspension however the threads are scheduled (writes and flushes the socket takes
     * at once do not suspend).
     */
    private static volatile java.util.function.BooleanSupplier mayReply = () -> true;

    private final FlowScheduler scheduler = FlowScheduler.builder()
            .workers(1).policy(SuspendPolicy.immediately()).name("flow-socket-test").build();
    private final FlowConnector connector = FlowConnector.builder().ioProcessors(1).build();

    /** A JDK thread-per-connection peer; the first line of a connection chooses what it does. */
    @BeforeAll
    static void startPeer() throws IOException {
        server = new ServerSocket(0, 50, Pairs.LOOPBACK);
        acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    Thread t = new Thread(() -> serve(s), "socket-test-peer");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return;
                }
            }
        }, "socket-test-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterAll
    static void stopPeer() throws Exception {
        server.close();
        acceptor.join(5000);
    }

    private static void serve(Socket s) {
        try (s) {
            s.setSoTimeout(10_000);
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
            OutputStream raw = s.getOutputStream();
            PrintStream out = new PrintStream(raw, true, StandardCharsets.US_ASCII);
            String mode = in.readLine();
            if ("late".equals(mode)) {
                String go = in.readLine();
                awaitMayReply();
                out.print("late after " + go + "\n");
            } else if ("greet".equals(mode)) {
                awaitMayReply();
                out.print("hello\n");
                int n = 0;
                while (in.read() >= 0) {
                    n++;
                }
                out.print(n + " bytes\n");
            } else if ("count".equals(mode)) {
                int n = 0;
                while (in.read() >= 0) {
                    n++;
                }
                awaitMayReply();
                out.print(n + " bytes\n");
            } else if ("reset".equals(mode)) {
                s.setSoLinger(true, 0); // the close below resets the connection instead of ending it
                return;
            } else if ("echo".equals(mode)) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    awaitMayReply();
                    out.print(line + "\n");
                }
            }
        } catch (IOException e) {
            // the client went away: nothing to answer
        }
    }

    @AfterEach
    void release() throws Exception {
        Teardown.closeAll(connector, List.of(), scheduler);
    }

    private InetSocketAddress address() {
        return new InetSocketAddress(Pairs.LOOPBACK, server.getLocalPort());
    }

    private String sync(String op, InetSocketAddress to) throws Exception {
        return new flowtest.mina.SocketOps(op, connector.socketFactory(), to).call();
    }

    private String continuation(String op, InetSocketAddress to) throws Exception {
        Callable<?> task = STRICT.newInstance(Callable.class, "flowtest.mina.SocketOps", op, connector.socketFactory(), to);
        mayReply = () -> scheduler.stats().suspended() > 0;
        try {
            FlowHandle<?> h = scheduler.submit(task);
            return (String) h.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
        } finally {
            mayReply = () -> true;
        }
    }

    /** Waits (up to 10 s) until the peer may reply, see {@link #mayReply}. */
    private static void awaitMayReply() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!mayReply.getAsBoolean() && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(100_000);
        }
    }

    private static final String[] EXPECTED = {
        "echo", "false false true true true true false line 0;line 1;line 2; true",
        "createSocket", "true hi",
        "soTimeout", "200 timed out: Read timed out;late after go",   // the JDK's message
        "shutdownOutput", "true 5 bytes -1 [SocketException: Socket output is shutdown] "
                + "[SocketException: Socket output is already shutdown]",
        "shutdownOutputWithInputBuffered", "true hello 5 bytes",
        "shutdownInput", "x true -1 -1 [SocketException: Socket input is shutdown] ",
        "options", "false true 3 true true false -1 true [SocketException: SO_OOBINLINE: true (expected: false; Flow "
                + "sockets do not receive urgent data)] [SocketException: sendUrgentData: not supported (Flow sockets "
                + "send no TCP urgent data)] [IllegalArgumentException: timeout can't be negative] ok",
        "closed", "true true [SocketException: Socket is closed] [SocketException: Socket is closed] "
                + "[SocketException: Socket is closed] [SocketException: Socket is closed] "
                + "[SocketException: Socket is closed] [SocketException: Socket closed] [SocketException: Socket closed]",
        "unconnected", "null 0 -1 null null false false false 0 -1 [SocketException: Socket is not connected] "
                + "[SocketException: Socket is not connected] [SocketException: Socket is not connected] "
                + "[SocketException: Socket is not connected] [IllegalArgumentException: connect: The address can't be null] "
                + "[IllegalArgumentException: connect: timeout can't be negative] [UnknownHostException: flow.invalid] "
                + "[SocketException: Socket is closed] true",
        "arguments", "[IllegalArgumentException: negative send size] [IllegalArgumentException: invalid receive size] "
                + "[IllegalArgumentException: invalid value for SO_LINGER] none 65535 "
                + "[IllegalArgumentException: tc is not in range 0 -- 255] [NullPointerException: null] "
                + "[socketexception: already connected] [SocketException: Already bound] "
                + "Socket[addr=/127.0.0.1,port=P,localport=L] true [SocketException: Socket input is already shutdown] none "
                + "[SocketException: Socket closed] true true true Socket[addr=/127.0.0.1,port=P,localport=L]",
        "streams", "[IndexOutOfBoundsException: Range [3, 3 + 5) out of bounds for length 4] NullPointerException "
                + "[IndexOutOfBoundsException: Range [3, 3 + 5) out of bounds for length 4] NullPointerException 0 0 0 false "
                + "[IOException: mark/reset not supported] true true 2ab 1 10 [SocketException: Socket closed] true "
                + "[SocketException: Socket closed] none none none",
        "local", "true true from a true true from b [NullPointerException: null] "
                + "[IllegalArgumentException: port out of range:70000] [UnknownHostException: flow.invalid]",
        "reset", "[SocketException: Connection reset] [SocketException: Connection reset] none none "
                + "[SocketException: Connection reset] [SocketException: Connection reset] false true none",
    };

    /**
     * What the JDK's own sockets show instead (Linux; JDK 17 and 25), by scenario: a part of Flow's transcript and
     * the JDK's in its place. Each is a documented difference of {@link FlowSocketFactory}'s sockets.
     */
    private static final String[] JDK_DIFFERENCES = {
        // A write after shutdownOutput(): the JDK reports the system's EPIPE, Flow names the cause.
        "shutdownOutput", "[SocketException: Socket output is shutdown] [", "[SocketException: Broken pipe] [",
        // A write after the peer reset the connection: the JDK reports the system's EPIPE, Flow the reset.
        "reset", "none [SocketException: Connection reset] [SocketException: Connection reset] false",
        "none [SocketException: Broken pipe] [SocketException: Broken pipe] false",
        // Urgent data: the JDK sends and receives it, Flow refuses both by name.
        "options", "[SocketException: SO_OOBINLINE: true (expected: false; Flow sockets do not receive urgent data)] "
                + "[SocketException: sendUrgentData: not supported (Flow sockets send no TCP urgent data)]", "none none",
    };

    private static String expected(String op) {
        for (int i = 0; i < EXPECTED.length; i += 2) {
            if (EXPECTED[i].equals(op)) {
                return EXPECTED[i + 1];
            }
        }
        throw new IllegalArgumentException(op);
    }

    @ParameterizedTest
    @ValueSource(strings = {"echo", "createSocket", "soTimeout", "shutdownOutput", "shutdownOutputWithInputBuffered",
        "shutdownInput", "options", "closed", "unconnected", "arguments", "streams", "local", "reset"})
    void aSocketScenarioGivesTheSameTranscriptInSyncAndContinuationMode(String op) throws Exception {
        assertEquals(expected(op), sync(op, address()), "sync");
        long resumedBefore = scheduler.stats().resumed();
        assertEquals(expected(op), continuation(op, address()), "continuation");
        if (mustWait(op)) {
            assertTrue(scheduler.stats().resumed() > resumedBefore, "the flow suspended: " + scheduler.stats());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"echo", "createSocket", "soTimeout", "shutdownOutput", "shutdownOutputWithInputBuffered",
        "shutdownInput", "options", "closed", "unconnected", "arguments", "streams", "local", "reset"})
    void theJdksOwnSocketsGiveTheSameTranscriptButForTheDocumentedDifferences(String op) throws Exception {
        assertEquals(jdkTranscript(op), new flowtest.mina.SocketOps(op, SocketFactory.getDefault(), address()).call());
    }

    /**
     * Whether scenario {@code op} must suspend: all but three whose only wait may be the connect, which on loopback
     * may complete at once, and the reset, whose reads may find the peer's reset already there.
     */
    private static boolean mustWait(String op) {
        return !op.equals("closed") && !op.equals("unconnected") && !op.equals("arguments") && !op.equals("reset");
    }

    /** Flow's transcript of {@code op} with the documented differences replaced by what the JDK's sockets show. */
    private static String jdkTranscript(String op) {
        String jdk = expected(op);
        for (int i = 0; i < JDK_DIFFERENCES.length; i += 3) {
            if (JDK_DIFFERENCES[i].equals(op)) {
                assertTrue(jdk.contains(JDK_DIFFERENCES[i + 1]), op + ": " + JDK_DIFFERENCES[i + 1]);
                jdk = jdk.replace(JDK_DIFFERENCES[i + 1], JDK_DIFFERENCES[i + 2]);
            }
        }
        return jdk;
    }

    /**
     * Existing code that makes its sockets with {@code java.net.Socket}'s constructors: loaded normally it gets the
     * JDK's sockets (the JDK's transcript), loaded through the loader Flow's, which suspend (Flow's transcript), strict.
     */
    @ParameterizedTest
    @ValueSource(strings = {"echo", "createSocket", "soTimeout", "shutdownOutput", "shutdownOutputWithInputBuffered",
        "shutdownInput", "options", "closed", "unconnected", "arguments", "streams", "local", "reset"})
    void socketConstructorsInLoadedCodeMakeFlowSocketsThatSuspend(String op) throws Exception {
        flowSocketsInLoadedCode("flowtest.mina.ConstructedSockets", op);
    }

    /** The same with {@code SocketFactory.getDefault()} called in loaded code: Flow's default factory there. */
    @ParameterizedTest
    @ValueSource(strings = {"echo", "createSocket", "soTimeout", "shutdownOutput", "shutdownOutputWithInputBuffered",
        "shutdownInput", "options", "closed", "unconnected", "arguments", "streams", "local", "reset"})
    void theDefaultSocketFactoryInLoadedCodeMakesFlowSocketsThatSuspend(String op) throws Exception {
        flowSocketsInLoadedCode("flowtest.mina.DefaultFactorySockets", op);
    }

    @Test
    void inLoadedCodeTheDefaultSocketFactoryIsFlowsEvenInAStaticInitializerAndTheDefaultTlsFactoryLayersFlowsTls()
            throws Exception {
        assertEquals("DefaultSocketFactory DefaultSocketFactory true false", new flowtest.mina.DefaultFactories().call(),
                "loaded normally");
        Callable<?> task = STRICT.newInstance(Callable.class, "flowtest.mina.DefaultFactories");
        assertEquals("FlowSocketFactory FlowSocketFactory true true", scheduler.submit(task).toCompletionStage()
                .toCompletableFuture().get(20, TimeUnit.SECONDS), "a strict flow");
    }

    /**
     * A connect by name looks the name up: on the caller's thread loaded normally and on a plain thread, on one of
     * Flow's lookup threads in a flow, which waits for it instead of holding its worker; the same sockets either way.
     */
    @Test
    void aFlowConnectingByNameLooksTheNameUpOnALookupThreadAndGetsTheSameSockets() throws Exception {
        int port = server.getLocalPort();
        String expected = new flowtest.mina.ConnectByName(port).call();
        assertEquals("localhost/127.0.0.1 true by name; localhost/127.0.0.1 true by name; ", expected, "loaded normally");
        long before = dev.flow.internal.NameLookups.done();
        assertEquals(expected, STRICT.newInstance(Callable.class, "flowtest.mina.ConnectByName", port).call(),
                "loaded, on a plain thread");
        assertEquals(before, dev.flow.internal.NameLookups.done(), "a plain thread looks names up itself");
        Callable<?> task = STRICT.newInstance(Callable.class, "flowtest.mina.ConnectByName", port);
        assertEquals(expected, scheduler.submit(task).toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS),
                "a strict flow");
        assertEquals(before + 2, dev.flow.internal.NameLookups.done(), "the flow's two lookups ran on lookup threads");
    }

    @Test
    void anUnconnectedSocketMadeInAConstructorOrStaticInitializerIsFlowsAndAStrictFlowMayMakeIt() throws Exception {
        assertEquals("Socket Socket false", new flowtest.mina.SocketHolder().call(), "loaded normally");
        Callable<?> task = STRICT.newInstance(Callable.class, "flowtest.mina.SocketHolder");
        assertEquals("FlowSocket FlowSocket false", scheduler.submit(task).toCompletionStage().toCompletableFuture()
                .get(20, TimeUnit.SECONDS), "a strict flow");
    }

    /**
     * Scenario {@code op} through socket factory {@code factoryClass}: loaded normally the JDK's transcript, loaded
     * through the loader as a strict flow Flow's, with real suspensions.
     */
    private void flowSocketsInLoadedCode(String factoryClass, String op) throws Exception {
        SocketFactory plain = (SocketFactory) Class.forName(factoryClass).getConstructor().newInstance();
        assertEquals(jdkTranscript(op), new flowtest.mina.SocketOps(op, plain, address()).call(), "loaded normally");
        SocketFactory loaded = STRICT.newInstance(SocketFactory.class, factoryClass);
        Callable<?> task = STRICT.newInstance(Callable.class, "flowtest.mina.SocketOps", op, loaded, address());
        long resumedBefore = scheduler.stats().resumed();
        mayReply = () -> scheduler.stats().suspended() > 0;
        try {
            FlowHandle<?> h = scheduler.submit(task);
            assertEquals(expected(op), h.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS), "as a flow");
        } finally {
            mayReply = () -> true;
        }
        if (mustWait(op)) {
            assertTrue(scheduler.stats().resumed() > resumedBefore, "the flow suspended: " + scheduler.stats());
        }
    }

    @Test
    void aScannerOverAReaderOverAFlowSocketsStreamIsRefusedWhereItIsMadeInStrictMode() throws Exception {
        assertEquals("true hi", sync("scanner", address()), "sync");
        Callable<?> task = STRICT.newInstance(Callable.class, "flowtest.mina.SocketOps", "scanner", connector.socketFactory(),
                address());
        FlowHandle<?> h = scheduler.submit(task);
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> h.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS));
        assertInstanceOf(UnsuspendableFrameException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("flowtest.mina.SocketOps.call()Ljava/lang/String; (line 167): the call "
                + "blocks its thread and has no suspendable form"), e.getCause().getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation", "jdk"})
    void connectingToAPortNobodyListensOnThrowsConnectExceptionAndClosesTheSocket(String mode) throws Exception {
        InetSocketAddress closed;
        try (ServerSocket s = new ServerSocket(0, 1, Pairs.LOOPBACK)) {
            closed = new InetSocketAddress(Pairs.LOOPBACK, s.getLocalPort());
        }
        if (mode.equals("jdk")) {
            // The JDK's message does not name the address.
            assertJdkFailedConnect("[ConnectException: Connection refused]", "refused", closed);
            return;
        }
        String got = mode.equals("sync") ? sync("refused", closed) : continuation("refused", closed);
        assertEquals("[ConnectException: cannot connect to " + closed + ": Connection refused] true", got);
    }

    /**
     * The JDK's own socket fails {@code op}'s connect with {@code exception}; whether it is closed then depends on
     * the JDK: JDK 17's stays open, JDK 25's is closed (Flow's always is).
     */
    private static void assertJdkFailedConnect(String exception, String op, InetSocketAddress to) throws Exception {
        String got = new flowtest.mina.SocketOps(op, SocketFactory.getDefault(), to).call();
        int feature = Runtime.version().feature();
        if (feature == 17 || feature >= 25) {
            assertEquals(exception + " " + (feature >= 25), got);
        } else {
            assertTrue(got.startsWith(exception + " "), got);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "continuation", "jdk"})
    void aConnectTimeoutThatExpiresThrowsConnectTimedOutAndClosesTheSocket(String mode) throws Exception {
        // A listener that never accepts, its accept queue full: the kernel drops further connection requests.
        List<Socket> filling = new java.util.ArrayList<>();
        try (ServerSocket full = new ServerSocket(0, 1, Pairs.LOOPBACK)) {
            InetSocketAddress to = new InetSocketAddress(Pairs.LOOPBACK, full.getLocalPort());
            Pairs.fillAcceptQueue(full, filling);
            if (mode.equals("jdk")) {
                assertJdkFailedConnect("[SocketTimeoutException: Connect timed out]", "connectTimeout", to);
                return;
            }
            String got = mode.equals("sync") ? sync("connectTimeout", to) : continuation("connectTimeout", to);
            assertEquals("[SocketTimeoutException: Connect timed out] true", got);
        } finally {
            for (Socket s : filling) {
                s.close();
            }
        }
    }

    @org.junit.jupiter.api.Test
    void theNoArgFactoryConnectsThroughADefaultConnectorThatDoesNotKeepTheJvmRunning() throws Exception {
        SocketFactory byName = (SocketFactory) Class.forName("dev.flow.mina.FlowSocketFactory").getConstructor().newInstance();
        assertEquals("true hi", new flowtest.mina.SocketOps("createSocket", byName, address()).call());
        String javaBin = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(javaBin, "-cp", System.getProperty("java.class.path"),
                DefaultFactoryProcess.class.getName()).redirectErrorStream(true).start();
        boolean exited = p.waitFor(25, TimeUnit.SECONDS);
        if (!exited) {
            p.destroyForcibly().waitFor();
        }
        assertTrue(exited, "the JVM exits with a connection of the default connector open");
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(0, p.exitValue(), output);
        assertEquals("connected hi", output);
    }

    @org.junit.jupiter.api.Test
    void aLibraryThatCallsGetDefaultOnTheNamedFactoryClassGetsFlowSockets() throws Exception {
        // Jakarta Mail's SocketFetcher: Class.forName(mail.smtp.socketFactory.class).getMethod("getDefault").invoke(null)
        Object byName = Class.forName("dev.flow.mina.FlowSocketFactory").getMethod("getDefault").invoke(null);
        SocketFactory factory = assertInstanceOf(FlowSocketFactory.class, byName);
        assertSame(byName, FlowSocketFactory.getDefault(), "one default factory");
        try (Socket s = factory.createSocket()) {
            assertInstanceOf(FlowSocket.class, s);
        }
        assertEquals("true hi", new flowtest.mina.SocketOps("createSocket", factory, address()).call());
    }
}
