package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.LineTooLongException;
import dev.flow.TransportConfig;
import dev.flow.loader.ContinuationClassLoader;
import dev.flow.spi.Awaitable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of {@link MinaTransport} beyond the transport contract: its primitives and MINA specifics. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class MinaTransportTest {

    private static final ContinuationClassLoader LOADER = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(false).build();

    private final Pairs pairs = new Pairs();

    @AfterEach
    void release() throws Exception {
        pairs.close();
    }

    @Test
    void inputReadyIsDoneOnlyWhenInputArrivedSinceTheLastPoll() throws Exception {
        Pairs.Pipe p = pairs.pipe(TransportConfig.DEFAULT);
        MinaTransport t = p.transport;
        assertNull(t.pollLine());
        Awaitable ready = t.inputReady();
        assertFalse(ready.isDone());
        CountDownLatch woken = new CountDownLatch(1);
        ready.whenDone(woken::countDown);

        p.peer.write(bytes("par"));
        assertTrue(ready.isDone());
        assertEquals(0, woken.getCount(), "the action ran when the input arrived");
        assertTrue(t.inputReady().isDone(), "input arrived since the last poll");

        assertNull(t.pollLine(), "no complete line yet");
        Awaitable next = t.inputReady();
        assertFalse(next.isDone(), "a partial line already polled is not new input");
        p.peer.write(bytes("tial\n"));
        assertTrue(next.isDone());
        assertEquals("partial", t.pollLine());
    }

    @Test
    void aWriteAfterThePeerResetTheConnectionThrowsAtOnceInsteadOfBeingQueued() throws Exception {
        Pairs.Tcp p = pairs.tcp(TransportConfig.DEFAULT, false);
        p.peer.socket().setSoLinger(true, 0);
        p.peer.socket().close();
        IOException read = assertThrows(IOException.class, p.transport::readLine);
        assertTrue(read.getMessage().endsWith("failed: Connection reset"), read.getMessage());
        IOException write = assertThrows(IOException.class, () -> p.transport.writeLine("dropped"));
        assertEquals(read.getMessage(), write.getMessage());
        assertSame(read.getCause(), write.getCause(), "the connection's failure");
        p.transport.flush(); // nothing is left to send: as a JDK socket's flush(), it does not throw
    }

    @Test
    void aFlushAfterThePeerResetTheConnectionDoesNotThrowWhenEveryWriteWentOut() throws Exception {
        Pairs.Tcp p = pairs.tcp(TransportConfig.DEFAULT, false);
        p.transport.writeLine("sent");
        assertEquals("sent\n", new String(p.peer.readExactly(5), StandardCharsets.US_ASCII));
        p.peer.reset();
        Conditions.await("the reset seen", p.transport::isInputClosed);
        p.transport.flush(); // a JDK socket's write then flush: the write went out before the reset
        assertThrows(IOException.class, () -> p.transport.writeLine("dropped"));
    }

    @Test
    void aFlushAfterThePeerResetTheConnectionThrowsWhenAFlowStillHoldsWrites() throws Exception {
        Pairs.Tcp p = pairs.tcp(TransportConfig.DEFAULT, false);
        FlowScheduler scheduler = FlowScheduler.builder().workers(1).name("held-writes-test").build();
        try {
            CountDownLatch written = new CountDownLatch(1);
            AtomicBoolean release = new AtomicBoolean();
            Callable<?> task = LOADER.newInstance(Callable.class, "flowtest.mina.HeldWrite", p.transport, written, release);
            FlowHandle<?> flow = scheduler.submit(task);
            assertTrue(written.await(10, TimeUnit.SECONDS));
            assertEquals(0, p.transport.sends(), "a flow's write is held back until it flushes or waits");
            p.peer.reset();
            Conditions.await("the reset seen", p.transport::isInputClosed);
            release.set(true);
            String thrown = (String) flow.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertTrue(thrown.endsWith("failed: Connection reset"), thrown);
            assertEquals(0, p.transport.sends(), "the held write was dropped");
        } finally {
            scheduler.close();
        }
    }

    @Test
    void inputReadyCompletesWhenThePeerCloses() throws Exception {
        Pairs.Pipe p = pairs.pipe(TransportConfig.DEFAULT);
        Awaitable ready = p.transport.inputReady();
        assertFalse(ready.isDone());
        p.peer.close();
        Conditions.await("input ready after close", ready::isDone);
        assertTrue(p.transport.isInputClosed());
        assertNull(p.transport.pollLine());
        assertEquals(-1, p.transport.pollRead(new byte[1], 0, 1));
    }

    @Test
    void anotherInputReadyCallReleasesTheStalePendingOne() throws Exception {
        Pairs.Pipe p = pairs.pipe(TransportConfig.DEFAULT);
        Awaitable stale = p.transport.inputReady();
        AtomicInteger runs = new AtomicInteger();
        stale.whenDone(runs::incrementAndGet);
        Awaitable fresh = p.transport.inputReady();
        assertNotSame(stale, fresh);
        assertTrue(stale.isDone(), "a wait that timed out must not keep its action forever");
        assertEquals(1, runs.get());
        assertFalse(fresh.isDone());
    }

    @Test
    void pollReadReturnsZeroWhenNothingIsBufferedAndMinusOneAtTheEnd() throws Exception {
        Pairs.Pipe p = pairs.pipe(TransportConfig.DEFAULT);
        byte[] dst = new byte[4];
        assertEquals(0, p.transport.pollRead(dst, 0, 4));
        p.peer.write(new byte[] {1, 2});
        assertEquals(2, p.transport.pollRead(dst, 1, 3));
        assertArrayEquals(new byte[] {0, 1, 2, 0}, dst);
        p.peer.shutdownOutput();
        Conditions.await("end of input", p.transport::isInputClosed);
        assertEquals(-1, p.transport.pollRead(dst, 0, 4));
    }

    @Test
    void writesCompleteWhenWrittenAndCheckWriteRethrowsAFailedWrite() throws Exception {
        Pairs.Pipe p = pairs.pipe(TransportConfig.DEFAULT);
        MinaTransport t = p.transport;
        Awaitable w = t.writeLineAsync("one");
        Conditions.await("write completion", w::isDone);
        t.checkWrite(w);
        assertSame(w, t.flushAsync(), "flush waits for the last write");
        assertArrayEquals(bytes("one\n"), p.peer.readExactly(4));

        p.peer.close(); // closes both ends of the pipe
        Conditions.await("session closed", () -> !t.session().isConnected());
        Awaitable failed = t.writeLineAsync("two");
        assertTrue(failed.isDone());
        IOException e = assertThrows(IOException.class, () -> t.checkWrite(failed));
        assertTrue(e.getMessage().contains("failed"), e.getMessage());
        assertThrows(IOException.class, () -> t.writeLine("three"));
    }

    @Test
    void writesAreAcceptedAtOnceBelowTheHighWaterMarkAndWaitAboveIt() throws Exception {
        Pairs.Tcp p = pairs.tcp(TransportConfig.DEFAULT, false);
        assertTrue(p.transport.writeAsync(new byte[1024], 0, 1024).isDone(), "a small write is accepted at once");
        byte[] chunk = new byte[16 * 1024];
        long written = 1024;
        Awaitable w = null;
        for (int i = 0; i < 10_000 && (w == null || w.isDone()); i++) {
            w = p.transport.writeAsync(chunk, 0, chunk.length);
            written += chunk.length;
        }
        assertFalse(w.isDone(), "with the peer not reading, a write above the high-water mark has to wait");
        assertTrue(p.transport.session().getScheduledWriteBytes() > MinaTransport.WRITE_HIGH_WATER);
        assertEquals(written, p.peer.readExactly((int) written).length);
        Awaitable pending = w;
        Conditions.await("the waiting write to complete once the peer reads", pending::isDone);
        p.transport.checkWrite(pending);
    }

    @Test
    void closeLetsAcceptedWritesGoOutBeforeTheSessionCloses() throws Exception {
        Pairs.Tcp p = pairs.tcp(TransportConfig.DEFAULT, false);
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            p.transport.writeLine("line " + i);
            expected.append("line ").append(i).append('\n');
        }
        p.transport.close();
        assertArrayEquals(bytes(expected.toString()), p.peer.readExactly(expected.length()));
        p.peer.awaitEndOfStream();
    }

    @Test
    void checkWriteRejectsAnIncompleteWrite() throws Exception {
        Pairs.Pipe p = pairs.pipe(TransportConfig.DEFAULT);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> p.transport.checkWrite(new Signal()));
        assertTrue(e.getMessage().contains("expected: a completed write"), e.getMessage());
    }

    @Test
    void afterALineTooLongEveryReadFails() throws Exception {
        Pairs.Pipe p = pairs.pipe(TransportConfig.builder().maxLineLength(3).build());
        MinaTransport t = p.transport;
        p.peer.write(bytes("abcdef\nok\n"));
        LineTooLongException e = assertThrows(LineTooLongException.class, t::pollLine);
        assertEquals(6, e.length());
        assertEquals(3, e.limit());
        assertEquals("line length: 6 (expected: <= maxLineLength 3)", e.getMessage());
        assertTrue(t.isInputClosed());
        assertTrue(t.inputReady().isDone());
        assertThrows(LineTooLongException.class, t::pollLine);
        assertThrows(LineTooLongException.class, () -> t.pollRead(new byte[1], 0, 1));
        assertEquals(0, t.bufferedBytes(), "the input is discarded");
    }

    @Test
    void endOfInputOverTcpLeavesTheSessionOpenForWriting() throws Exception {
        Pairs.Tcp p = pairs.tcp(TransportConfig.DEFAULT, false);
        p.peer.write(bytes("request\n"));
        p.peer.shutdownOutput();
        assertEquals("request", p.transport.readLine());
        assertNull(p.transport.readLine());
        assertTrue(p.transport.session().isConnected());
        p.transport.writeLine("response");
        assertArrayEquals(bytes("response\n"), p.peer.readExactly(9));
        p.transport.close();
        p.peer.awaitEndOfStream();
    }

    @Test
    void tcpReadingIsSuspendedWhileUnreadInputExceedsTheHighWaterMark() throws Exception {
        Pairs.Tcp p = pairs.tcp(TransportConfig.DEFAULT, false);
        MinaTransport t = p.transport;
        int total = 1 << 20;
        byte[] data = new byte[total];
        for (int i = 0; i < total; i++) {
            data[i] = (byte) (i % 251);
        }
        OutputStream out = p.peer.socket().getOutputStream();
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try {
                out.write(data); // blocks once the kernel buffers are full
                out.flush();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        Conditions.await("reads suspended", () -> t.session().isReadSuspended(), () -> "buffered " + t.bufferedBytes());
        int buffered = t.bufferedBytes();
        assertTrue(buffered >= t.highWater() && buffered <= t.highWater() + 65536,
                "buffered " + buffered + " with high-water mark " + t.highWater());

        byte[] got = new byte[total];
        long t0 = System.nanoTime();
        int n = 0;
        while (n < total) {
            int r = t.read(got, n, Math.min(8192, total - n));
            assertTrue(r > 0, "read returned " + r);
            n += r;
        }
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        // Each resume must wake MINA's selector; otherwise every one of the ~16 cycles waits up to 1 s.
        assertTrue(ms < 5000, "reading 1 MiB through suspend/resume cycles took " + ms + " ms");
        writer.get(5, TimeUnit.SECONDS);
        assertArrayEquals(data, got);
        assertFalse(t.session().isReadSuspended());
    }

    @Test
    void ofReturnsTheTransportAttachedToTheSession() throws Exception {
        Pairs.Pipe p = pairs.pipe(TransportConfig.DEFAULT);
        assertSame(p.transport, MinaTransport.of(p.transport.session()));
        assertNull(MinaTransport.of(p.peer.session()), "a session not opened by Flow has none");
    }

    @Test
    void charsetsThatAreNotAsciiCompatibleAreRejected() {
        TransportConfig utf16 = TransportConfig.builder().charset(StandardCharsets.UTF_16).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FlowConnector.builder().config(utf16));
        assertTrue(e.getMessage().startsWith("charset: UTF-16 (expected: "), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> FlowServer.builder().config(utf16));
    }

    @Test
    void closeWakesAWaitingReaderWithAnIOException() throws Exception {
        Pairs.Pipe p = pairs.pipe(TransportConfig.DEFAULT);
        MinaTransport t = p.transport;
        java.util.concurrent.Future<String> line = Conditions.whileBlocked(t::readLine);
        t.close();
        java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
                () -> line.get(5, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof IOException && e.getCause().getMessage().contains("is closed"),
                e.getCause().toString());
        p.peer.awaitEndOfStream();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
