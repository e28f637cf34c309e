package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.LineTerminator;
import dev.flow.TransportConfig;
import dev.flow.spi.Awaitable;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.filterchain.IoFilterAdapter;
import org.apache.mina.core.session.DummySession;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.core.write.WriteRequest;
import org.apache.mina.core.write.WriteToClosedSessionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The limits and failure paths of {@link MinaTransport} (issue #8 items 5 to 8 and 10). */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class MinaTransportLimitsTest {

    private final Pairs pairs = new Pairs();

    @AfterEach
    void release() throws Exception {
        pairs.close();
    }

    /** A session whose writes stay queued until the test completes them. */
    private static final class HeldWrites extends IoFilterAdapter {
        final List<WriteRequest> held = new ArrayList<>();

        @Override
        public synchronized void filterWrite(NextFilter next, IoSession session, WriteRequest request) {
            held.add(request);
        }

        synchronized WriteRequest get(int i) {
            return held.get(i);
        }

        static DummySession session(HeldWrites filter) {
            DummySession s = new DummySession();
            s.getFilterChain().addLast("held", filter);
            return s;
        }
    }

    // ---------------------------------------------------------------- #8.6 write failures

    @Test
    void aFlushThatExceedsTheWriteTimeoutClosesTheSessionAtOnce() throws Exception {
        HeldWrites filter = new HeldWrites();
        DummySession session = HeldWrites.session(filter);
        MinaTransport t = MinaTransport.attach(session,
                TransportConfig.builder().writeTimeout(Duration.ofMillis(100)).build());
        t.write(new byte[1000], 0, 1000);
        assertTrue(session.isConnected());
        SocketTimeoutException e = assertThrows(SocketTimeoutException.class, t::flush);
        assertTrue(e.getMessage().contains("writeTimeout") && e.getMessage().contains("session closed"), e.getMessage());
        assertTrue(session.isClosing() || !session.isConnected(), "the session is closed, not left with its queue");
        assertThrows(IOException.class, () -> t.writeLine("late"));
    }

    @Test
    void everyFailedWriteBehindIsReportedByTheNextFlush() throws Exception {
        HeldWrites filter = new HeldWrites();
        MinaTransport t = MinaTransport.attach(HeldWrites.session(filter), TransportConfig.DEFAULT);
        for (int i = 0; i < 3; i++) {
            t.writeLine("line " + i); // accepted at once: write-behind
        }
        for (int i = 0; i < 3; i++) {
            filter.get(i).getFuture().setException(new IOException("failure " + i));
        }
        IOException e = assertThrows(IOException.class, t::flush);
        assertTrue(e.getMessage().contains("failure 0") && e.getMessage().contains("3 writes failed"), e.getMessage());
        assertEquals("failure 0", e.getCause().getMessage());
        assertEquals(2, e.getSuppressed().length, "the later failures are attached");
        assertEquals("failure 1", e.getSuppressed()[0].getMessage());
        assertEquals("failure 2", e.getSuppressed()[1].getMessage());
        assertThrows(IOException.class, () -> t.writeLine("next"), "the next write reports them too");
    }

    /**
     * MINA reports a {@code CancelledKeyException} when it changes the interest of a session whose key
     * its close has just cancelled: the session is closing, so the handler's read sees the end of the
     * input, not a failed connection (a soak's generation stop reported "handler failed unexpectedly:
     * connection ... failed: java.nio.channels.CancelledKeyException").
     */
    @Test
    void aCancelledKeyReportedAsTheSessionClosesIsTheEndOfTheInputNotAFailure() throws Exception {
        DummySession session = new DummySession();
        MinaTransport t = MinaTransport.attach(session, TransportConfig.DEFAULT);
        t.onReceived(IoBuffer.wrap("last\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        t.onException(new java.nio.channels.CancelledKeyException());
        t.onSessionClosed();
        assertEquals("last", t.readLine());
        assertEquals(null, t.readLine());
    }

    // ---------------------------------------------------------------- #8.10 server stop

    @Test
    void readsAndWritesAfterTheSessionWasEndedFailWithTheSameReason() throws Exception {
        HeldWrites filter = new HeldWrites();
        DummySession session = HeldWrites.session(filter);
        MinaTransport t = MinaTransport.attach(session, TransportConfig.DEFAULT);
        t.writeLine("queued");
        t.abort(new IOException("server /127.0.0.1:7 stopped"));
        filter.get(0).getFuture().setException(new WriteToClosedSessionException(filter.get(0)));
        IOException flush = assertThrows(IOException.class, t::flush);
        assertTrue(flush.getMessage().contains("server /127.0.0.1:7 stopped"), flush.getMessage());
        IOException write = assertThrows(IOException.class, () -> t.writeLine("after"));
        assertTrue(write.getMessage().contains("server /127.0.0.1:7 stopped"), write.getMessage());
        IOException read = assertThrows(IOException.class, t::readLine);
        assertTrue(read.getMessage().contains("server /127.0.0.1:7 stopped"), read.getMessage());
    }

    // ---------------------------------------------------------------- #8.5 slow and idle peers, memory

    @Test
    void anIdleSessionIsClosedAfterTheIdleTimeout() throws Exception {
        Pairs.Tcp p = pairs.tcp(TransportConfig.builder().idleTimeout(Duration.ofSeconds(1)).build(), false);
        long t0 = System.nanoTime();
        IOException e = assertThrows(IOException.class, p.transport::readLine);
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertTrue(e.getMessage().contains("idleTimeout"), e.getMessage());
        assertTrue(ms >= 900 && ms < 5000, "closed after " + ms + " ms");
        p.peer.awaitEndOfStream();
    }

    @Test
    void theInputBufferShrinksBackAfterALongLineIsConsumed() throws Exception {
        Pairs.Pipe p = pairs.pipe(TransportConfig.builder().maxLineLength(64 * 1024).build());
        byte[] partial = "x".repeat(12 * 1024).getBytes(StandardCharsets.US_ASCII);
        p.peer.write(partial);
        assertNull(p.transport.pollLine());
        assertTrue(p.transport.bufferCapacity() >= 12 * 1024);
        p.peer.write("\nnext".getBytes(StandardCharsets.US_ASCII));
        assertEquals(12 * 1024, p.transport.readLine().length());
        assertTrue(p.transport.bufferCapacity() <= 8 * 1024,
                "capacity after the long line: " + p.transport.bufferCapacity());
        byte[] rest = new byte[4];
        assertEquals(4, p.transport.read(rest, 0, 4));
        assertArrayEquals("next".getBytes(StandardCharsets.US_ASCII), rest);
    }

    @Test
    void vmPipeReadingIsSuspendedWhileUnreadInputExceedsTheHighWaterMark() throws Exception {
        Pairs.Pipe p = pairs.pipe(TransportConfig.DEFAULT);
        MinaTransport t = p.transport;
        byte[] chunk = new byte[4096];
        int sent = 0;
        while (sent < 4 * t.highWater()) {
            p.peer.write(chunk);
            sent += chunk.length;
        }
        assertTrue(t.session().isReadSuspended(), "reading is suspended");
        assertTrue(t.bufferedBytes() <= t.highWater() + chunk.length,
                "buffered " + t.bufferedBytes() + " with high-water mark " + t.highWater());
        byte[] got = new byte[sent];
        t.readFully(got, 0, sent);
        assertFalse(t.session().isReadSuspended());
    }

    @Test
    void linesReadFromABufferStillHoldingInputReleaseTheBudgetByTheTimeTheReaderWouldWait() throws Exception {
        InputBudget budget = new InputBudget(1 << 20);
        Pairs.Pipe a = pairs.pipe(TransportConfig.DEFAULT, budget);
        byte[] input = "one\r\ntwo\r\nthr".getBytes(StandardCharsets.US_ASCII);
        a.peer.write(input);
        Conditions.await("the input to arrive", () -> a.transport.bufferedBytes() == input.length, budget::toString);
        assertEquals(input.length, budget.usedBytes(), budget.toString());
        assertEquals("one", a.transport.pollLine(LineTerminator.LF_OR_CRLF, 100));
        assertEquals("two", a.transport.pollLine(LineTerminator.LF_OR_CRLF, 100));
        assertTrue(budget.usedBytes() >= a.transport.bufferedBytes(), "never fewer than the bytes buffered: " + budget);
        assertNull(a.transport.pollLine(LineTerminator.LF_OR_CRLF, 100), "only a partial line is left");
        assertEquals(3, budget.usedBytes(), "a read that finds nothing to take settles what was read: " + budget);
        a.peer.write("ee\r\n".getBytes(StandardCharsets.US_ASCII));
        Conditions.await("the rest of the line", () -> a.transport.bufferedBytes() == 7, budget::toString);
        assertEquals(7, budget.usedBytes(), budget.toString());
        assertEquals("three", a.transport.pollLine(LineTerminator.LF_OR_CRLF, 100));
        assertEquals(0, budget.usedBytes(), "the read that empties the buffer releases it all: " + budget);
    }

    @Test
    void anInputBudgetCapsTheInputBufferedAcrossSessions() throws Exception {
        InputBudget budget = new InputBudget(96 * 1024);
        Pairs.Pipe a = pairs.pipe(TransportConfig.DEFAULT, budget);
        Pairs.Pipe b = pairs.pipe(TransportConfig.DEFAULT, budget);
        byte[] chunk = new byte[4096];
        for (int i = 0; i < 15; i++) { // 60 KiB: below one session's own high-water mark
            a.peer.write(chunk);
        }
        for (int i = 0; i < 15; i++) {
            b.peer.write(chunk);
        }
        assertTrue(b.transport.session().isReadSuspended(), "b stops reading at the shared cap: " + budget);
        a.peer.write(chunk);
        assertTrue(a.transport.session().isReadSuspended(), "so does a as soon as more arrives: " + budget);
        assertTrue(budget.usedBytes() <= budget.maxBytes() + chunk.length, budget.toString());
        assertEquals(budget.usedBytes(), a.transport.bufferedBytes() + b.transport.bufferedBytes());
        a.transport.readFully(new byte[64 * 1024], 0, 64 * 1024);
        Conditions.await("session b to resume and receive everything", () -> b.transport.bufferedBytes() == 60 * 1024,
                () -> budget + ", b buffered " + b.transport.bufferedBytes());
        assertFalse(b.transport.session().isReadSuspended());
        b.transport.close();
        assertEquals(0, budget.usedBytes(), "closing releases the budget");
    }

    @Test
    void inputBudgetRejectsANonPositiveCap() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new InputBudget(0));
        assertEquals("maxBytes: 0 (expected: > 0)", e.getMessage());
    }

    // ---------------------------------------------------------------- #8.7 decoding cost

    @Test
    void thePartialLineIsDecodedOnceNotOncePerArrival() throws Exception {
        int chars = 2000;
        Pairs.Pipe p = pairs.pipe(TransportConfig.builder().maxLineLength(chars).build());
        byte[] euro = "\u20ac".getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < chars; i++) {
            for (byte x : euro) {
                p.peer.write(new byte[] {x});
                assertNull(p.transport.pollLine());
            }
        }
        long total = (long) chars * euro.length;
        assertTrue(p.transport.decodedBytes() <= total,
                "decoded " + p.transport.decodedBytes() + " bytes to count " + total + " received ones");
        p.peer.write(new byte[] {'\n'});
        assertEquals(chars, p.transport.readLine().length());
    }

    @Test
    void anAwaitableWriteIsDoneForAnEmptyText() throws Exception {
        Pairs.Pipe p = pairs.pipe(TransportConfig.DEFAULT);
        Awaitable w = p.transport.writeTextAsync("");
        assertTrue(w.isDone());
    }
}
