package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.TransportConfig;
import dev.flow.UnsuspendableFrameException;
import dev.flow.internal.Pins;
import dev.flow.loader.ContinuationClassLoader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code InputStream}/{@code OutputStream} views of a transport in continuation mode: used
 * directly from loaded code, or behind a JDK decorator that loaded code made (Flow's substitute), they
 * suspend; behind a JDK decorator made outside the loaded scope they pin (warn once per site, or refuse
 * in strict mode).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StreamViewTest {

    private static final ContinuationClassLoader STRICT = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(true).build();
    private static final ContinuationClassLoader LENIENT = ContinuationClassLoader.builder()
            .include("flowtest.mina").build();

    private final FlowScheduler scheduler = FlowScheduler.builder()
            .workers(1).policy(SuspendPolicy.immediately()).name("stream-view-test").build();
    private final Pairs pairs = new Pairs();

    @AfterEach
    void release() throws Exception {
        try {
            pairs.close();
            Conditions.await("the scheduler to be idle", () -> scheduler.stats().isIdle(), () -> scheduler.stats().toString());
        } finally {
            scheduler.close();
            assertTrue(scheduler.awaitTermination(Duration.ofSeconds(5)));
        }
    }

    private FlowHandle<?> start(ContinuationClassLoader loader, String op, MinaTransport t) {
        Callable<?> task = loader.newInstance(Callable.class, "flowtest.mina.StreamOps", op, t);
        return scheduler.submit(task);
    }

    /** What {@code h} ended with, for a failure message: its value or exception, else "running". */
    private static String outcome(FlowHandle<?> h) {
        if (!h.isDone()) {
            return "running";
        }
        try {
            return String.valueOf(result(h));
        } catch (Exception e) {
            java.io.StringWriter w = new java.io.StringWriter();
            e.printStackTrace(new java.io.PrintWriter(w));
            return w.toString();
        }
    }

    private static Object result(FlowHandle<?> h) throws Exception {
        return h.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void inputStreamReadFromLoadedCodeSuspendsTheFlow() throws Exception {
        Pairs.Tcp p = pairs.tcp(TransportConfig.DEFAULT, false);
        FlowHandle<?> h = start(STRICT, "read4", p.transport);
        Conditions.await("the flow to suspend in read", () -> scheduler.stats().suspended() == 1,
                () -> scheduler.stats().toString());
        p.peer.write("ab".getBytes(StandardCharsets.US_ASCII));
        p.peer.write("cd".getBytes(StandardCharsets.US_ASCII));
        assertEquals("4:abcd", result(h));
    }

    @Test
    void streamViewsBatchRepliesByFlushingWhenInputRunsDry() throws Exception {
        Pairs.Tcp p = pairs.tcp(TransportConfig.DEFAULT, false);
        p.peer.write("112233".getBytes(StandardCharsets.US_ASCII));
        Conditions.await("the input to be buffered", () -> p.transport.available() == 6);
        FlowHandle<?> h = start(STRICT, "echoUntilDry", p.transport);
        assertEquals(1, result(h), "one flush for three pipelined requests");
        assertArrayEquals("112233".getBytes(StandardCharsets.US_ASCII), p.peer.readExactly(6));
    }

    @Test
    void dataInputStreamMadeByLoadedCodeOverTheViewSuspendsTheFlow() throws Exception {
        for (ContinuationClassLoader loader : new ContinuationClassLoader[] {STRICT, LENIENT}) {
            Pairs.Tcp p = pairs.tcp(TransportConfig.DEFAULT, false);
            FlowHandle<?> h = start(loader, "readInt", p.transport);
            Conditions.await("the flow to suspend in readInt", () -> scheduler.stats().suspended() == 1,
                    () -> scheduler.stats().toString());
            p.peer.write(new byte[] {0, 0});
            p.peer.write(new byte[] {1, 2});
            assertEquals(258, result(h));
        }
        assertEquals(List.of(), Pins.warnings().stream().filter(w -> w.contains("flowtest.mina.StreamOps.call"))
                .collect(Collectors.toList()));
    }

    private FlowHandle<?> startForeign(ContinuationClassLoader loader, java.io.InputStream in) {
        Callable<?> task = loader.newInstance(Callable.class, "flowtest.mina.ForeignDataInput", new java.io.DataInputStream(in));
        return scheduler.submit(task);
    }

    @Test
    void dataInputStreamMadeOutsideTheScopeOverTheViewSuspendsTheFlow() throws Exception {
        for (ContinuationClassLoader loader : new ContinuationClassLoader[] {STRICT, LENIENT}) {
            Pairs.Tcp p = pairs.tcp(TransportConfig.DEFAULT, false);
            FlowHandle<?> h = startForeign(loader, new java.io.BufferedInputStream(p.transport.inputStream(), 3));
            Conditions.await("the flow to suspend in readInt", () -> scheduler.stats().suspended() == 1,
                    () -> scheduler.stats().toString());
            p.peer.write(new byte[] {0, 0});
            Conditions.await("half the int to arrive", () -> p.transport.available() == 2);
            p.peer.write(new byte[] {1, 2});
            p.peer.close();
            assertEquals("258 EOF", result(h));
        }
        assertEquals(List.of(), Pins.warnings().stream().filter(w -> w.contains("flowtest.mina.ForeignDataInput"))
                .collect(Collectors.toList()));
    }

    @Test
    void skipBytesOnADataInputStreamMadeOutsideTheScopeOverTheViewSuspendsTheFlow() throws Exception {
        for (ContinuationClassLoader loader : new ContinuationClassLoader[] {STRICT, LENIENT}) {
            Pairs.Tcp p = pairs.tcp(TransportConfig.DEFAULT, false);
            Callable<?> task = loader.newInstance(Callable.class, "flowtest.mina.ForeignDataSkip",
                    new java.io.DataInputStream(new java.io.BufferedInputStream(p.transport.inputStream(), 2)));
            long resumed = scheduler.stats().resumed();
            FlowHandle<?> h = scheduler.submit(task);
            Conditions.await("the flow to suspend in skipBytes", () -> scheduler.stats().suspended() == 1,
                    () -> scheduler.stats().toString());
            p.peer.write(new byte[] {1});
            Conditions.await("the flow to skip the first byte and suspend again for the other two",
                    () -> scheduler.stats().resumed() > resumed && scheduler.stats().suspended() == 1,
                    () -> scheduler.stats().toString());
            p.peer.write(new byte[] {2, 3, 4, 5});
            p.peer.close();
            assertEquals("3 4 1", result(h));
        }
        assertEquals(List.of(), Pins.warnings().stream().filter(w -> w.contains("flowtest.mina.ForeignDataSkip"))
                .collect(Collectors.toList()));
    }

    /** A decorator that hides what is buffered under it: a read through it cannot be made sure not to wait. */
    private static java.io.InputStream opaque(java.io.InputStream in) {
        return new java.io.FilterInputStream(in) {
            @Override
            public int available() {
                return 0;
            }
        };
    }

    @Test
    void dataInputStreamMadeOutsideTheScopeOverAnOpaqueDecoratorPinsTheFlowAndWarnsOncePerSite() throws Exception {
        for (int round = 0; round < 2; round++) {
            Pairs.Tcp p = pairs.tcp(TransportConfig.DEFAULT, false);
            FlowHandle<?> h = startForeign(LENIENT, opaque(p.transport.inputStream()));
            Conditions.await("the flow to block its worker", () -> scheduler.stats().running() == 1,
                    () -> scheduler.stats().toString());
            assertEquals(0, scheduler.stats().suspended(), "a wait inside the JDK's DataInputStream cannot suspend");
            p.peer.write(new byte[] {0, 0, 1, 2});
            p.peer.close();
            assertEquals("258 EOF", result(h));
        }
        List<String> mine = Pins.warnings().stream().filter(w -> w.contains("flowtest.mina.ForeignDataInput.call")
                && w.contains("(line 21)")).collect(Collectors.toList());
        assertEquals(1, mine.size(), "one warning for readInt's site: " + Pins.warnings());
        assertTrue(mine.get(0).contains("blocking the worker thread"), mine.get(0));
    }

    @Test
    void dataInputStreamMadeOutsideTheScopeOverAnOpaqueDecoratorIsRefusedInStrictMode() throws Exception {
        Pairs.Tcp p = pairs.tcp(TransportConfig.DEFAULT, false);
        FlowHandle<?> h = startForeign(STRICT, opaque(p.transport.inputStream()));
        ExecutionException e = assertThrows(ExecutionException.class, () -> result(h));
        assertInstanceOf(UnsuspendableFrameException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("flowtest.mina.ForeignDataInput.call"), e.getCause().getMessage());
    }

    /** 16 KiB arrays {@code ForeignDataOutput} writes: 32 MiB, past what the kernel buffers for a peer that does not read. */
    private static final int CHUNKS = 2048;

    @Test
    void writesThroughADataOutputStreamMadeOutsideTheScopeOverTheViewSuspendTheFlow() throws Exception {
        for (ContinuationClassLoader loader : new ContinuationClassLoader[] {STRICT, LENIENT}) {
            Pairs.Tcp p = pairs.tcp(TransportConfig.DEFAULT, false);
            java.io.DataOutputStream out = new java.io.DataOutputStream(
                    new java.io.BufferedOutputStream(p.transport.outputStream(), 100));
            FlowHandle<?> h = scheduler.submit(loader.newInstance(Callable.class, "flowtest.mina.ForeignDataOutput", out, CHUNKS));
            Conditions.await("the flow to suspend in a write the peer holds back", () -> scheduler.stats().suspended() == 1,
                    () -> scheduler.stats() + " " + outcome(h));
            int total = 4 + 6 + CHUNKS * 16 * 1024 + 8;
            java.nio.ByteBuffer head = java.nio.ByteBuffer.wrap(p.peer.readExactly(10));
            assertEquals(7, head.getInt());
            assertEquals(4, head.getShort());
            byte[] rest = new byte[0];
            for (int left = total - 10; left > 0; left -= rest.length) {
                rest = p.peer.readExactly(Math.min(left, 1 << 20));
            }
            long sizeBeforeTheLong = java.nio.ByteBuffer.wrap(rest, rest.length - 8, 8).getLong();
            assertEquals(total - 8, sizeBeforeTheLong);
            assertEquals(total, result(h));
        }
        assertEquals(List.of(), Pins.warnings().stream().filter(w -> w.contains("flowtest.mina.ForeignDataOutput"))
                .collect(Collectors.toList()));
    }

    @Test
    void readLineOfADataInputStreamMadeOutsideTheScopeIsReportedAtItsSiteEvenWhenItsLineIsBuffered() throws Exception {
        for (ContinuationClassLoader loader : new ContinuationClassLoader[] {STRICT, LENIENT, LENIENT}) {
            Pairs.Tcp p = pairs.tcp(TransportConfig.DEFAULT, false);
            p.peer.write("xab\r\n".getBytes(StandardCharsets.US_ASCII));
            Conditions.await("the line to be buffered", () -> p.transport.available() == 5);
            java.io.DataInputStream in = new java.io.DataInputStream(new java.io.BufferedInputStream(p.transport.inputStream()));
            assertEquals('x', in.readByte(), "read on this thread: the whole line is now in the BufferedInputStream");
            FlowHandle<?> h = scheduler.submit(loader.newInstance(Callable.class, "flowtest.mina.ForeignDataLine", in));
            if (loader == STRICT) {
                ExecutionException e = assertThrows(ExecutionException.class, () -> result(h));
                assertInstanceOf(UnsuspendableFrameException.class, e.getCause());
                assertTrue(e.getCause().getMessage().startsWith("cannot suspend at flowtest.mina.ForeignDataLine.call()"
                        + "Ljava/lang/String; (line 18): the call blocks its thread and has no suspendable form"),
                        e.getCause().getMessage());
            } else {
                assertEquals("ab", result(h));
            }
        }
        List<String> mine = Pins.warnings().stream().filter(w -> w.contains("flowtest.mina.ForeignDataLine.call")
                && w.contains("(line 18)")).collect(Collectors.toList());
        assertEquals(1, mine.size(), "one warning for the readLine site over two lenient runs: " + Pins.warnings());
    }

    @Test
    void inputStreamReadOutsideAFlowBlocks() throws Exception {
        Pairs.Pipe p = pairs.pipe(TransportConfig.DEFAULT);
        p.peer.write(new byte[] {42});
        assertEquals(42, p.transport.inputStream().read());
    }
}
