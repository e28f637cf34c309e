package dev.flow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.flow.internal.Awaits;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The behaviour every {@link Transport} must show, whatever carries its bytes.
 *
 * <p>A concrete subclass supplies connected pairs: the transport under test and a {@link Peer} the
 * test drives from the other end. Each test runs twice: through the transport's blocking methods
 * ({@link Access#BLOCKING}) and through the loops Flow runs in continuation mode ({@link
 * Access#AWAITS}, i.e. {@link Awaits}, which for a {@link dev.flow.spi.AsyncTransport} polls and
 * waits on {@code inputReady()}, and for any other transport calls the blocking methods). Override
 * {@link #peerWritesOneByteAtATime()} to make the peer deliver every byte separately.
 *
 * <p>Every test is bounded in time; waits that must fail do so through the transport's own timeouts
 * or the peer's bounded reads.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
public abstract class TransportContractTest {

    /** How a test calls the transport. */
    protected enum Access {
        /** The blocking {@link Transport} methods (sync mode). */
        BLOCKING,
        /** Flow's suspendable forms in {@link Awaits}, run outside a flow so they block. */
        AWAITS,
        /**
         * Continuation mode: each operation is plain code loaded through the {@code
         * ContinuationClassLoader} and run as a flow, which suspends while it waits ({@link
         * #flowRunner()}; skipped where the implementation provides none).
         */
        FLOW
    }

    /** Runs one transport operation as a flow in continuation mode. */
    public interface FlowRunner {
        /**
         * Starts {@code op} ({@code readLine}, {@code readLineWith}, {@code read}, {@code readFully},
         * {@code readFullyN}, {@code skip}, {@code writeLine}, {@code write}, {@code writeAll},
         * {@code writeText}, {@code flush}, {@code readLineBytes}, {@code readLineBytesWith}, {@code
         * readDotBody} or {@code flushIfNoInput}) on {@code transport} with {@code args} as a flow and
         * returns its result.
         */
        java.util.concurrent.CompletionStage<Object> start(String op, Transport transport, Object... args);
    }

    /** The runner for {@link Access#FLOW}, or {@code null} (the default) to skip that access. */
    protected FlowRunner flowRunner() {
        return null;
    }

    @org.junit.jupiter.api.BeforeEach
    void skipFlowAccessWithoutRunner(org.junit.jupiter.api.TestInfo info) {
        org.junit.jupiter.api.Assumptions.assumeTrue(flowRunner() != null || !info.getDisplayName().contains("FLOW"),
                "no flow runner for continuation mode");
    }

    /** The far end of a connection under test, driven by the test thread. */
    public interface Peer {
        /** Sends {@code bytes} to the transport under test in one write. */
        void write(byte[] bytes) throws Exception;

        /**
         * Returns exactly {@code n} bytes written by the transport under test, failing (throwing) if
         * they do not arrive within a few seconds.
         */
        byte[] readExactly(int n) throws Exception;

        /**
         * Waits a few seconds at most until the transport under test has closed the connection,
         * failing (throwing) if it does not or if more data arrives.
         */
        void awaitEndOfStream() throws Exception;

        /** Ends the stream towards the transport under test after the bytes already written. */
        void shutdownOutput() throws Exception;

        /** Breaks the connection abruptly, as a TCP reset does. */
        void reset() throws Exception;

        /** Releases the peer's end; a second call does nothing. */
        void close() throws Exception;
    }

    /** A connected pair: the transport under test and its peer. */
    public static final class Connection {
        private final Transport transport;
        private final Peer peer;

        /** Creates the pair. */
        public Connection(Transport transport, Peer peer) {
            this.transport = transport;
            this.peer = peer;
        }

        /** The transport under test. */
        public Transport transport() {
            return transport;
        }

        /** The test-driven far end. */
        public Peer peer() {
            return peer;
        }
    }

    private final List<Connection> connections = new ArrayList<>();

    /**
     * Returns a new connected pair whose transport uses {@code config}. Resources the subclass creates
     * for it are its own to release, e.g. in an {@code @AfterEach} method; the transport and peer are
     * closed by this class after each test.
     */
    protected abstract Connection connect(TransportConfig config) throws Exception;

    /** Whether the peer writes each byte separately, so that input arrives one byte at a time. */
    protected boolean peerWritesOneByteAtATime() {
        return false;
    }

    @AfterEach
    void closeConnections() throws Exception {
        for (Connection c : connections) {
            try {
                c.transport().close();
            } finally {
                c.peer().close();
            }
        }
        connections.clear();
    }

    // ---------------------------------------------------------------- reading lines

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineReturnsLinesInOrder(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "one\ntwo\n\nthree\n");
        assertEquals("one", readLine(access, c));
        assertEquals("two", readLine(access, c));
        assertEquals("", readLine(access, c));
        assertEquals("three", readLine(access, c));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineReturnsNullAtEndOfStream(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "last\n");
        c.peer().shutdownOutput();
        assertEquals("last", readLine(access, c));
        assertNull(readLine(access, c));
        assertNull(readLine(access, c), "end of stream is reported again");
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineReturnsUnterminatedLastLineAtEndOfStream(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "a\nb");
        c.peer().shutdownOutput();
        assertEquals("a", readLine(access, c));
        assertEquals("b", readLine(access, c));
        assertNull(readLine(access, c));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineHandlesCrLf(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "one\r\ntwo\nthree\r\n\r\n");
        assertEquals("one", readLine(access, c));
        assertEquals("two", readLine(access, c));
        assertEquals("three", readLine(access, c));
        assertEquals("", readLine(access, c));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineKeepsCarriageReturnNotFollowedByLineFeed(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "a\rb\n");
        assertEquals("a\rb", readLine(access, c));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineAcceptsLinesOfExactlyMaxLength(Access access) throws Exception {
        Connection c = open(TransportConfig.builder().maxLineLength(5).readTimeout(Duration.ofMillis(50)).build());
        send(c, "abcde\r");
        // Polled now, the '\r' may be the first half of "\r\n": it must not count as content yet.
        assertThrows(SocketTimeoutException.class, () -> readLine(access, c));
        send(c, "\nfghij\n");
        awaitAvailable(c, 13); // the 50 ms read timeout is for the wait above, not for loopback under load
        assertEquals("abcde", readLine(access, c));
        assertEquals("fghij", readLine(access, c));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineCountsCharactersNotBytesAgainstTheLimit(Access access) throws Exception {
        Connection c = open(TransportConfig.builder().maxLineLength(4).readTimeout(Duration.ofMillis(50)).build());
        send(c, "\u20ac\u20ac\u20ac\u20ac"); // 4 characters, 12 bytes in UTF-8, not terminated yet
        assertThrows(SocketTimeoutException.class, () -> readLine(access, c));
        send(c, "\n");
        awaitAvailable(c, 13); // the 50 ms read timeout is for the wait above, not for loopback under load
        assertEquals("\u20ac\u20ac\u20ac\u20ac", readLine(access, c));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineWaitsForALineThatArrivesLater(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        Future<String> line = whileBlocked(() -> readLine(access, c));
        send(c, "late");
        send(c, " line\n");
        assertEquals("late line", result(line));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineReturnsNullWhenTheStreamEndsWhileWaiting(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        Future<String> line = whileBlocked(() -> readLine(access, c));
        c.peer().shutdownOutput();
        assertNull(result(line));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineThrowsWhenLineExceedsLimit(Access access) throws Exception {
        Connection c = open(TransportConfig.builder().maxLineLength(8).build());
        send(c, "ok\n0123456789\n");
        assertEquals("ok", readLine(access, c));
        LineTooLongException e = assertThrows(LineTooLongException.class, () -> readLine(access, c));
        assertEquals(8, e.limit());
        assertTrue(e.length() > 8 && e.length() <= 10, "length seen: " + e.length());
        assertTrue(e.getMessage().contains(Long.toString(e.length())) && e.getMessage().contains("8"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineThrowsAsSoonAsUnterminatedLineExceedsLimit(Access access) throws Exception {
        Connection c = open(TransportConfig.builder().maxLineLength(8).build());
        send(c, "0123456789"); // no terminator will ever come
        LineTooLongException e = assertThrows(LineTooLongException.class, () -> readLine(access, c));
        assertEquals(8, e.limit());
        assertTrue(e.length() > 8 && e.length() <= 10, "length seen: " + e.length());
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineThrowsSocketTimeoutExceptionAfterReadTimeout(Access access) throws Exception {
        Connection c = open(TransportConfig.builder().readTimeout(Duration.ofMillis(150)).build());
        send(c, "partial"); // not a line: must not end the wait
        long t0 = System.nanoTime();
        SocketTimeoutException e = assertThrows(SocketTimeoutException.class, () -> readLine(access, c));
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertTrue(ms >= 140, "timed out after " + ms + " ms");
        assertTrue(e.getMessage().contains("readTimeout") && e.getMessage().contains("150"), e.getMessage());
        send(c, " line\n");
        awaitAvailable(c, 13); // the 150 ms read timeout is for the wait above, not for loopback under load
        assertEquals("partial line", readLine(access, c), "the transport stays usable after a timeout");
    }

    // ---------------------------------------------------------------- reading bytes

    @ParameterizedTest
    @EnumSource(Access.class)
    void readReturnsBytesAndMinusOneAtEnd(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        byte[] data = {0, 1, '\n', (byte) 0xff, '\r', 42};
        send(c, data);
        c.peer().shutdownOutput();
        assertArrayEquals(data, readToEnd(access, c));
        assertEquals(-1, read(access, c, new byte[4], 0, 4), "end of stream is reported again");
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readReturnsAvailableBytesWithoutWaitingToFillTheBuffer(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, new byte[] {7, 8, 9});
        byte[] dst = new byte[100];
        int got = 0;
        while (got < 3) {
            int n = read(access, c, dst, 10 + got, 90 - got);
            assertTrue(n > 0 && got + n <= 3, "read returned " + n);
            got += n;
        }
        assertArrayEquals(new byte[] {7, 8, 9}, java.util.Arrays.copyOfRange(dst, 10, 13));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readThrowsSocketTimeoutExceptionAfterReadTimeout(Access access) throws Exception {
        Connection c = open(TransportConfig.builder().readTimeout(Duration.ofMillis(100)).build());
        SocketTimeoutException e = assertThrows(SocketTimeoutException.class,
                () -> read(access, c, new byte[8], 0, 8));
        assertTrue(e.getMessage().contains("readTimeout"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readWaitsForBytesThatArriveLater(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        byte[] dst = new byte[8];
        Future<Integer> n = whileBlocked(() -> read(access, c, dst, 0, 8));
        send(c, new byte[] {5});
        assertEquals(1, result(n));
        assertEquals(5, dst[0]);
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineAndReadShareOneInputBuffer(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "head\nBODY");
        c.peer().shutdownOutput();
        assertEquals("head", readLine(access, c));
        assertArrayEquals("BODY".getBytes(StandardCharsets.US_ASCII), readToEnd(access, c));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readThrowsIOExceptionWhenPeerResets(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        c.peer().reset();
        IOException e = assertThrows(IOException.class, () -> readLine(access, c));
        assertFalse(e instanceof SocketTimeoutException, e.toString());
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readThrowsIOExceptionWhenPeerResetsWhileWaiting(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        Future<String> line = whileBlocked(() -> readLine(access, c));
        c.peer().reset();
        ExecutionException e = assertThrows(ExecutionException.class, () -> line.get(10, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof IOException && !(e.getCause() instanceof SocketTimeoutException),
                e.getCause().toString());
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void aFlushAfterThePeerResetThrowsNothingWhenEverythingWrittenHadGoneOut(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        writeLine(access, c, "sent");
        flush(access, c);
        assertArrayEquals("sent\n".getBytes(StandardCharsets.US_ASCII), c.peer().readExactly(5));
        c.peer().reset();
        assertThrows(IOException.class, () -> readLine(access, c));
        flush(access, c); // nothing is left to send: a JDK socket's flush() does not throw either
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void aLineWrittenAfterAReadSawThePeersResetFailsAtTheLatestWhenFlushed(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        c.peer().reset();
        assertThrows(IOException.class, () -> readLine(access, c));
        IOException e = assertThrows(IOException.class, () -> {
            writeLine(access, c, "lost");
            flush(access, c);
        });
        assertFalse(e instanceof SocketTimeoutException, e.toString());
    }

    // ---------------------------------------------------------------- charsets

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineDecodesWithConfiguredCharset(Access access) throws Exception {
        Connection c = open(TransportConfig.builder().charset(StandardCharsets.ISO_8859_1).build());
        send(c, new byte[] {'c', 'a', 'f', (byte) 0xe9, '\n'});
        assertEquals("caf\u00e9", readLine(access, c));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineDecodesMultibyteUtf8SplitAcrossArrivals(Access access) throws Exception {
        Connection c = open(TransportConfig.builder().charset(StandardCharsets.UTF_8).build());
        String text = "na\u00efve \u20ac \ud834\udd1e";
        send(c, (text + "\n").getBytes(StandardCharsets.UTF_8));
        assertEquals(text, readLine(access, c));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void writeLineEncodesWithConfiguredCharset(Access access) throws Exception {
        Connection c = open(TransportConfig.builder().charset(StandardCharsets.ISO_8859_1).build());
        writeLine(access, c, "caf\u00e9");
        flush(access, c);
        assertArrayEquals(new byte[] {'c', 'a', 'f', (byte) 0xe9, '\n'}, c.peer().readExactly(5));
    }

    // ---------------------------------------------------------------- writing

    @ParameterizedTest
    @EnumSource(Access.class)
    void writeLineIsReceivedByPeer(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        writeLine(access, c, "hello");
        writeLine(access, c, "w\u00f6rld \u2713");
        flush(access, c);
        byte[] expected = "hello\nw\u00f6rld \u2713\n".getBytes(StandardCharsets.UTF_8);
        assertArrayEquals(expected, c.peer().readExactly(expected.length));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void writeAndFlushDeliverBytesToPeer(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        byte[] all = new byte[256];
        for (int i = 0; i < all.length; i++) {
            all[i] = (byte) i;
        }
        write(access, c, all, 1, 254);
        write(access, c, all, 0, 0);
        flush(access, c);
        assertArrayEquals(java.util.Arrays.copyOfRange(all, 1, 255), c.peer().readExactly(254));
    }

    // ---------------------------------------------------------------- line policies (#9.1, #8.8)

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineWithCrlfTerminatorKeepsBareLineFeedInTheLine(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "a\nb\r\nc\r\n");
        assertEquals("a\nb", readLine(access, c, LineTerminator.CRLF, 100));
        assertEquals("c", readLine(access, c, LineTerminator.CRLF, 100));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineUsesTheConfiguredTerminator(Access access) throws Exception {
        Connection c = open(TransportConfig.builder().lineTerminator(LineTerminator.CRLF).build());
        send(c, "x\ny\r\nz\n");
        c.peer().shutdownOutput();
        assertEquals("x\ny", readLine(access, c));
        assertEquals("z\n", readLine(access, c), "at end of stream the rest is the last line");
        assertNull(readLine(access, c));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineWithPerCallLimitThrowsWhenLineExceedsIt(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "abc\nabcd\n");
        assertEquals("abc", readLine(access, c, LineTerminator.LF_OR_CRLF, 3));
        LineTooLongException e = assertThrows(LineTooLongException.class,
                () -> readLine(access, c, LineTerminator.LF_OR_CRLF, 3));
        assertEquals(3, e.limit());
        assertThrows(LineTooLongException.class, () -> read(access, c, new byte[1], 0, 1),
                "after a line too long the input cannot be trusted");
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineStripsTrailingCarriageReturnAtEndOfStream(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "last\r");
        c.peer().shutdownOutput();
        assertEquals("last", readLine(access, c));
        assertNull(readLine(access, c));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineReplacesMalformedInputByDefault(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, new byte[] {'a', (byte) 0xff, 'b', '\n'});
        assertEquals("a\ufffdb", readLine(access, c));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineWithStrictDecodingThrowsMalformedInputExceptionNamingTheConnection(Access access) throws Exception {
        Connection c = open(TransportConfig.builder().strictDecoding(true).build());
        send(c, new byte[] {'a', (byte) 0xff, 'b', '\n', 'o', 'k', '\n'});
        MalformedInputException e = assertThrows(MalformedInputException.class, () -> readLine(access, c));
        assertTrue(e.getMessage().contains("strictDecoding") && e.getMessage().contains("UTF-8"), e.getMessage());
        assertTrue(e.getMessage().contains(c.transport().toString()), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineThrowsSocketTimeoutExceptionWhenLineTimeoutExpiresWhileBytesTrickleIn(Access access) throws Exception {
        Connection c = open(TransportConfig.builder().readTimeout(Duration.ofSeconds(5))
                .lineTimeout(Duration.ofMillis(400)).build());
        Future<String> line = whileBlocked(() -> readLine(access, c));
        long t0 = System.nanoTime();
        long deadline = t0 + TimeUnit.SECONDS.toNanos(5);
        while (!line.isDone() && System.nanoTime() - deadline < 0) {
            c.peer().write(new byte[] {'x'}); // one byte per 50 ms: never a gap of readTimeout
            try {
                line.get(50, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException | ExecutionException e) {
                // still waiting, or ended: checked below
            }
        }
        SocketTimeoutException e = assertThrows(SocketTimeoutException.class, () -> result(line));
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertTrue(e.getMessage().contains("lineTimeout") && e.getMessage().contains("400"), e.getMessage());
        assertTrue(ms < 3000, "timed out after " + ms + " ms");
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readInsideARequestThrowsSocketTimeoutExceptionAtTheRequestTimeout(Access access) throws Exception {
        Connection c = open(TransportConfig.builder().readTimeout(Duration.ofSeconds(5))
                .requestTimeout(Duration.ofMillis(300)).build());
        send(c, "GET /"); // the request's first bytes; its line never ends
        long t0 = System.nanoTime();
        SocketTimeoutException e = assertThrows(SocketTimeoutException.class, () -> readLine(access, c));
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertTrue(e.getMessage().contains("(requestTimeout 300 ms, minRequestRate 0 bytes/s)"), e.getMessage());
        assertTrue(ms >= 250 && ms < 3000, "timed out after " + ms + " ms");
        // the rest of the line is there before the next request starts (its 300 ms count from endRequest(), too
        // short for loopback under load: a CI run's read timed out after 395 ms), so the read below does not wait
        send(c, " x\n");
        awaitAvailable(c, "GET / x\n".length());
        c.transport().endRequest(); // the request's deadline has passed: a read waiting in it would fail again
        assertEquals("GET / x", readLine(access, c), "the transport stays usable after a timeout");
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readBetweenRequestsIsNotCutByTheRequestTimeout(Access access) throws Exception {
        Connection c = open(TransportConfig.builder().readTimeout(Duration.ofMillis(600))
                .requestTimeout(Duration.ofMillis(200)).build());
        send(c, "one\n");
        awaitAvailable(c, 4); // the timeouts are for the wait below, not for loopback under load
        assertEquals("one", readLine(access, c));
        c.transport().endRequest();
        long t0 = System.nanoTime();
        SocketTimeoutException e = assertThrows(SocketTimeoutException.class, () -> readLine(access, c));
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertTrue(e.getMessage().contains("readTimeout") && !e.getMessage().contains("requestTimeout"), e.getMessage());
        assertTrue(ms >= 550, "timed out after " + ms + " ms");
    }

    // ---------------------------------------------------------------- exact reads (#9.1)

    @ParameterizedTest
    @EnumSource(Access.class)
    void readFullyReadsTheBytesThatFollowALine(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "$5\r\nhello\r\nnext\n");
        assertEquals("$5", readLine(access, c, LineTerminator.CRLF, 20));
        byte[] body = new byte[7];
        readFully(access, c, body, 1, 5);
        assertEquals("hello", new String(body, 1, 5, StandardCharsets.US_ASCII));
        assertEquals("", readLine(access, c));
        assertEquals("next", readLine(access, c));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readFullyWaitsUntilAllBytesArrived(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        Future<byte[]> got = whileBlocked(() -> readFully(access, c, 6));
        send(c, new byte[] {1, 2});
        send(c, new byte[] {3, 4, 5, 6, 7});
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6}, result(got));
        assertEquals(7, readFully(access, c, 1)[0], "bytes after the exact read stay buffered");
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readFullyThrowsEofExceptionNamingTheMissingBytes(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, new byte[] {1, 2, 3});
        c.peer().shutdownOutput();
        EOFException e = assertThrows(EOFException.class, () -> readFully(access, c, 5));
        assertTrue(e.getMessage().contains("expected 2 more bytes"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readFullyOfZeroBytesReturnsAtOnce(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        assertEquals(0, readFully(access, c, 0).length);
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void skipDiscardsExactlyTheGivenBytes(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        Future<Object> skipped = whileBlocked(() -> {
            skip(access, c, 6);
            return "done";
        });
        send(c, "0123");
        send(c, "456789\n");
        assertEquals("done", result(skipped));
        assertEquals("6789", readLine(access, c));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void skipThrowsEofExceptionWhenTheStreamEndsFirst(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "abc");
        c.peer().shutdownOutput();
        EOFException e = assertThrows(EOFException.class, () -> skip(access, c, 10));
        assertTrue(e.getMessage().contains("expected 7 more bytes"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void availableCountsBufferedBytesWithoutWaiting(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        assertEquals(0, c.transport().available());
        send(c, "ab\ncd");
        awaitAvailable(c, 5);
        assertEquals("ab", readLine(access, c));
        assertEquals(2, c.transport().available());
        readFully(access, c, 2);
        assertEquals(0, c.transport().available());
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void flushWhenPipelinedInputRunsDryBatchesReplies(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "1\n2\n3\n");
        awaitAvailable(c, 6);
        int flushes = 0;
        for (int i = 0; i < 3; i++) {
            String line = readLine(access, c);
            writeLine(access, c, "+" + line);
            if (c.transport().available() == 0) {
                flush(access, c);
                flushes++;
            }
        }
        assertEquals(1, flushes, "one flush for three pipelined requests");
        assertArrayEquals("+1\n+2\n+3\n".getBytes(StandardCharsets.US_ASCII), c.peer().readExactly(9));
    }

    // ---------------------------------------------------------------- writing text (#9.1)

    @ParameterizedTest
    @EnumSource(Access.class)
    void writeLineEndsLinesWithTheConfiguredSeparator(Access access) throws Exception {
        Connection c = open(TransportConfig.builder().lineSeparator("\r\n").build());
        writeLine(access, c, "+OK");
        flush(access, c);
        assertArrayEquals("+OK\r\n".getBytes(StandardCharsets.US_ASCII), c.peer().readExactly(5));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void writeTextAndWriteOfWholeArrayAddNoTerminator(Access access) throws Exception {
        Connection c = open(TransportConfig.builder().charset(StandardCharsets.ISO_8859_1).build());
        writeText(access, c, "caf\u00e9 ");
        writeText(access, c, "");
        writeAll(access, c, new byte[] {'!', '\n'});
        flush(access, c);
        assertArrayEquals(new byte[] {'c', 'a', 'f', (byte) 0xe9, ' ', '!', '\n'}, c.peer().readExactly(7));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void flushWithNothingWrittenReturnsAtOnce(Access access) throws Exception {
        Connection c = open(TransportConfig.builder().writeTimeout(Duration.ofMillis(500)).build());
        flush(access, c);
        flush(access, c);
    }

    /**
     * Whether a write can be held back by a peer that does not read (true of every socket). An in-VM
     * pipe never holds its writer back, so it has no write timeout to show; its test says so.
     */
    protected boolean peerCanHoldWritesBack() {
        return true;
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void aWriteHeldBackPastTheWriteTimeoutFailsAndClosesTheTransport(Access access) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(peerCanHoldWritesBack(), "the peer cannot hold writes back");
        Connection c = open(TransportConfig.builder().writeTimeout(Duration.ofMillis(300)).build());
        byte[] chunk = new byte[64 * 1024];
        // The peer reads nothing: once the buffers between them are full, a write or flush waits.
        // 64 MiB at most, more than any pair of socket buffers holds.
        SocketTimeoutException e = assertThrows(SocketTimeoutException.class, () -> {
            for (int i = 0; i < 1024; i++) {
                write(access, c, chunk, 0, chunk.length);
                flush(access, c);
            }
        });
        assertTrue(e.getMessage().contains("timed out after 300 ms (writeTimeout)"), e.getMessage());
        assertThrows(IOException.class, () -> writeLine(access, c, "late"), "the transport is closed");
    }

    // ---------------------------------------------------------------- stream views (#9.1)

    @ParameterizedTest
    @EnumSource(Access.class)
    void streamViewsShareTheTransportsBuffers(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "head\nxy");
        assertEquals("head", readLine(access, c));
        java.io.InputStream in = c.transport().inputStream();
        assertEquals('x', in.read());
        assertEquals(1, in.available());
        byte[] b = new byte[4];
        assertEquals(1, in.read(b, 0, 4));
        assertEquals('y', b[0]);
        java.io.OutputStream out = c.transport().outputStream();
        out.write('o');
        out.write(new byte[] {'k', '\n'}, 0, 2);
        out.flush();
        assertArrayEquals("ok\n".getBytes(StandardCharsets.US_ASCII), c.peer().readExactly(3));
    }

    // ---------------------------------------------------------------- closing

    @ParameterizedTest
    @EnumSource(Access.class)
    void closeIsIdempotentAndPeerSeesEndOfStream(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        writeLine(access, c, "bye");
        c.transport().close();
        c.transport().close();
        assertArrayEquals("bye\n".getBytes(StandardCharsets.UTF_8), c.peer().readExactly(4));
        c.peer().awaitEndOfStream();
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readAndWriteThrowIOExceptionAfterClose(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "unread\n");
        c.transport().close();
        assertThrows(IOException.class, () -> readLine(access, c));
        assertThrows(IOException.class, () -> read(access, c, new byte[1], 0, 1));
        assertThrows(IOException.class, () -> writeLine(access, c, "late"));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void remoteAddressAndConfigAreReported(Access access) throws Exception {
        TransportConfig config = TransportConfig.builder().maxLineLength(77).build();
        Connection c = open(config);
        assertNotNull(c.transport().remoteAddress());
        assertSame(config, c.transport().config());
    }

    // ---------------------------------------------------------------- byte lines (#18)

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineBytesReportsWhatEndedEachLine(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "a\r\nb\nc\rd");
        c.peer().shutdownOutput();
        assertEquals(line("a", LineEnding.CRLF), readLineBytes(access, c, LineTerminator.LF_OR_CRLF, 100));
        assertEquals(line("b", LineEnding.LF), readLineBytes(access, c, LineTerminator.LF_OR_CRLF, 100));
        assertEquals(line("c\rd", LineEnding.END_OF_STREAM), readLineBytes(access, c, LineTerminator.LF_OR_CRLF, 100));
        assertNull(readLineBytes(access, c, LineTerminator.LF_OR_CRLF, 100));
        assertNull(readLineBytes(access, c, LineTerminator.LF_OR_CRLF, 100), "end of stream is reported again");
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineBytesReturnsALineEndedByABareLineFeedAtOnceSoACrLfProtocolCanRejectIt(Access access)
            throws Exception {
        // Finding 2: a CRLF-strict reader waited for a "\r\n" that never came; the peer sends nothing more.
        Connection c = open(TransportConfig.builder().lineTerminator(LineTerminator.CRLF)
                .readTimeout(Duration.ofSeconds(10)).build());
        send(c, "HELO client\n");
        long t0 = System.nanoTime();
        Line l = readLineBytes(access, c, LineTerminator.LF_OR_CRLF, 1000);
        assertEquals(LineEnding.LF, l.ending());
        assertEquals("HELO client", l.text(StandardCharsets.US_ASCII));
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5), "waited for the read timeout");
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineBytesKeepsTheBytesExactlyWhateverTheCharset(Access access) throws Exception {
        Connection c = open(TransportConfig.builder().strictDecoding(true).build());
        send(c, new byte[] {0, (byte) 0xff, (byte) 0xe9, '\r', 'x', '\r', '\n'});
        Line l = readLineBytes(access, c, LineTerminator.CRLF, 100);
        assertArrayEquals(new byte[] {0, (byte) 0xff, (byte) 0xe9, '\r', 'x'}, l.bytes());
        assertEquals(LineEnding.CRLF, l.ending());
        assertEquals(0xff, l.byteAt(1));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineBytesWithCrlfTerminatorKeepsBareLineFeedInTheLine(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "a\nb\r\nc\r\n");
        assertEquals(line("a\nb", LineEnding.CRLF), readLineBytes(access, c, LineTerminator.CRLF, 100));
        assertEquals(line("c", LineEnding.CRLF), readLineBytes(access, c, LineTerminator.CRLF, 100));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineBytesCountsBytesAgainstTheLimitAndFailsLaterReads(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "\u20ac\r\n\u20ac\u20ac\r\n"); // 3 bytes, then 6 bytes (2 characters)
        assertEquals(3, readLineBytes(access, c, LineTerminator.CRLF, 4).length());
        LineTooLongException e = assertThrows(LineTooLongException.class,
                () -> readLineBytes(access, c, LineTerminator.CRLF, 4));
        assertEquals(4, e.limit());
        assertEquals(6, e.length());
        assertEquals("line length: 6 (expected: <= maxBytes 4)", e.getMessage(), "names the limit in bytes");
        LineTooLongException later = assertThrows(LineTooLongException.class, () -> read(access, c, new byte[1], 0, 1),
                "after a line too long the input cannot be trusted");
        assertEquals(e.getMessage(), later.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineBytesThrowsAsSoonAsUnterminatedLineExceedsLimit(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "0123456789"); // no terminator will ever come
        LineTooLongException e = assertThrows(LineTooLongException.class,
                () -> readLineBytes(access, c, LineTerminator.LF_OR_CRLF, 8));
        assertEquals(8, e.limit());
        assertEquals("line length: 10 (expected: <= maxBytes 8)", e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineBytesUsesTheConfiguredTerminatorAndLimit(Access access) throws Exception {
        Connection c = open(TransportConfig.builder().lineTerminator(LineTerminator.CRLF).maxLineLength(5).build());
        send(c, "ab\nc\r\n123456\r\n");
        assertEquals(line("ab\nc", LineEnding.CRLF), readLineBytes(access, c));
        assertEquals(5, assertThrows(LineTooLongException.class, () -> readLineBytes(access, c)).limit());
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineBytesWaitsForALineThatArrivesLater(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        Future<Line> line = whileBlocked(() -> readLineBytes(access, c, LineTerminator.CRLF, 100));
        send(c, "late\r");
        send(c, "\n");
        assertEquals(line("late", LineEnding.CRLF), result(line));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readLineBytesAndReadFullyShareOneInputBuffer(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "$3\r\nabc\r\n");
        assertEquals(line("$3", LineEnding.CRLF), readLineBytes(access, c, LineTerminator.CRLF, 10));
        assertArrayEquals("abc".getBytes(StandardCharsets.US_ASCII), readFully(access, c, 3));
        assertEquals(line("", LineEnding.CRLF), readLineBytes(access, c, LineTerminator.CRLF, 10));
    }

    // ---------------------------------------------------------------- dot-terminated bodies (#18)

    @ParameterizedTest
    @EnumSource(Access.class)
    void readDotBodyUnstuffsLeadingDotsAndReadsNothingPastTheFinalDot(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "line1\r\n..dot\r\n.x\r\n\r\n...\r\n.\r\nQUIT\r\n");
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        long n = readDotBody(access, c, sink, 1000);
        String expected = "line1\r\n.dot\r\nx\r\n\r\n..\r\n";
        assertEquals(expected, sink.toString(StandardCharsets.US_ASCII));
        assertEquals(expected.length(), n);
        assertEquals("QUIT", readLine(access, c));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readDotBodyKeepsEightBitBytesBareCarriageReturnsAndBareLineFeedsExactly(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (int i = 0x80; i <= 0xff; i++) {
            body.write(i);
        }
        // Neither "\n.\n" nor "\r.\r" nor "\n.\r\n" ends a body: only "\r\n.\r\n" does.
        body.writeBytes("\r\nx\n.\ny\r.\rz\n.\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        byte[] expected = body.toByteArray();
        send(c, expected);
        send(c, ".\r\n");
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        assertEquals(expected.length, readDotBody(access, c, sink, 1000));
        assertArrayEquals(expected, sink.toByteArray());
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readDotBodyOfAnEmptyBodyReturnsZero(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, ".\r\nnext\n");
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        assertEquals(0, readDotBody(access, c, sink, 0));
        assertEquals(0, sink.size());
        assertEquals("next", readLine(access, c));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readDotBodyOverTheLimitReadsTheWholeBodyThenThrowsNamingSizeAndLimit(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "0123456789\r\n0123456789\r\n.\r\nNEXT\r\n"); // 24 bytes of body
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        BodyTooLargeException e = assertThrows(BodyTooLargeException.class, () -> readDotBody(access, c, sink, 10));
        assertEquals(24, e.size());
        assertEquals(10, e.limit());
        assertTrue(e.getMessage().contains("24") && e.getMessage().contains("10"), e.getMessage());
        assertEquals("0123456789", sink.toString(StandardCharsets.US_ASCII), "the sink holds the first 10 bytes");
        assertEquals("NEXT", readLine(access, c), "the transport is positioned after the body");
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readDotBodyThrowsEofExceptionWhenTheStreamEndsInsideTheBody(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "abc\r\n.");
        c.peer().shutdownOutput();
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        EOFException e = assertThrows(EOFException.class, () -> readDotBody(access, c, sink, 1000));
        assertTrue(e.getMessage().contains("dot-terminated body after 5 bytes"), e.getMessage());
        assertEquals("abc\r\n", sink.toString(StandardCharsets.US_ASCII));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readDotBodyWaitsForABodyArrivingInPieces(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        Future<Long> n = whileBlocked(() -> readDotBody(access, c, sink, 1000));
        send(c, "ab");
        send(c, "c\r\n.");
        send(c, ".d\r\n.\r");
        send(c, "\n");
        assertEquals(9, result(n));
        assertEquals("abc\r\n.d\r\n", sink.toString(StandardCharsets.US_ASCII));
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void readDotBodyReadsALargeBodyByteExactly(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        java.util.Random random = new java.util.Random(18);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        while (expected.size() < (peerWritesOneByteAtATime() ? 4_000 : 200_000)) {
            byte[] text = new byte[random.nextInt(120)];
            for (int i = 0; i < text.length; i++) {
                text[i] = (byte) (random.nextInt(3) == 0 ? '.' : 0x20 + random.nextInt(0xe0));
            }
            expected.writeBytes(text);
            expected.writeBytes(new byte[] {'\r', '\n'});
            if (text.length > 0 && text[0] == '.') {
                wire.write('.');
            }
            wire.writeBytes(text);
            wire.writeBytes(new byte[] {'\r', '\n'});
        }
        wire.writeBytes(".\r\n".getBytes(StandardCharsets.US_ASCII));
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        send(c, wire.toByteArray());
        assertEquals(expected.size(), readDotBody(access, c, sink, Long.MAX_VALUE));
        assertArrayEquals(expected.toByteArray(), sink.toByteArray());
    }

    // ---------------------------------------------------------------- deadlines (#18)

    @ParameterizedTest
    @EnumSource(Access.class)
    void readFailsWithDeadlineExceededWhenItWouldWaitPastTheDeadline(Access access) throws Exception {
        Connection c = open(TransportConfig.builder().readTimeout(Duration.ofSeconds(10)).build());
        long t0 = System.nanoTime();
        try (Deadline d = c.transport().deadline(Duration.ofMillis(150))) {
            assertEquals(Duration.ofMillis(150), d.timeout());
            DeadlineExceededException e = assertThrows(DeadlineExceededException.class, () -> readLine(access, c));
            assertTrue(e.getMessage().contains("deadline") && e.getMessage().contains("150"), e.getMessage());
            assertEquals(Duration.ofMillis(150), e.timeout());
            assertEquals(Duration.ZERO, d.remaining());
        }
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertTrue(ms >= 140 && ms < 5000, "timed out after " + ms + " ms");
        send(c, "x\n");
        assertEquals("x", readLine(access, c), "the transport stays usable and the closed deadline is gone");
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void deadlineBoundsASequenceOfReads(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "first\n");
        awaitAvailable(c, 6); // the 300 ms deadline is for the waits below, not for loopback under load
        long t0 = System.nanoTime();
        try (Deadline d = c.transport().deadline(Duration.ofMillis(300))) {
            assertEquals("first", readLine(access, c));
            assertThrows(DeadlineExceededException.class, () -> readLineBytes(access, c));
            assertThrows(DeadlineExceededException.class, () -> read(access, c, new byte[1], 0, 1),
                    "a passed deadline fails every read that would wait");
        }
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertTrue(ms >= 290 && ms < 5000, "the sequence ended after " + ms + " ms");
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void configuredReadTimeoutStillAppliesUnderALaterDeadline(Access access) throws Exception {
        Connection c = open(TransportConfig.builder().readTimeout(Duration.ofMillis(100)).build());
        try (Deadline d = c.transport().deadline(Duration.ofSeconds(10))) {
            SocketTimeoutException e = assertThrows(SocketTimeoutException.class, () -> readLine(access, c));
            assertFalse(e instanceof DeadlineExceededException, e.toString());
            assertTrue(e.getMessage().contains("readTimeout"), e.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void theEarliestOpenDeadlineAppliesAndClosingOneRemovesIt(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        try (Deadline outer = c.transport().deadline(Duration.ofMillis(200))) {
            try (Deadline inner = c.transport().deadline(Duration.ofSeconds(30))) {
                DeadlineExceededException e = assertThrows(DeadlineExceededException.class,
                        () -> readLine(access, c));
                assertEquals(Duration.ofMillis(200), e.timeout(), "the outer deadline is the earlier");
            }
        }
        try (Deadline later = c.transport().deadline(Duration.ofSeconds(30))) {
            Future<String> line = whileBlocked(() -> readLine(access, c));
            send(c, "in time\n");
            assertEquals("in time", result(line));
        }
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void aReadThatFindsItsBytesBufferedIsNotFailedByAPassedDeadline(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "ready\n");
        awaitAvailable(c, 6);
        try (Deadline d = c.transport().deadline(Duration.ZERO)) {
            assertEquals("ready", readLine(access, c));
            assertThrows(DeadlineExceededException.class, () -> readLine(access, c));
        }
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void deadlineRejectsANegativeTimeoutNamingIt(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> c.transport().deadline(Duration.ofMillis(-1)));
        assertTrue(e.getMessage().contains("timeout: PT-0.001S"), e.getMessage());
    }

    // ---------------------------------------------------------------- reply batching (#18)

    @ParameterizedTest
    @EnumSource(Access.class)
    void flushIfNoInputFlushesOnlyOnceThePipelinedInputIsAnswered(Access access) throws Exception {
        Connection c = open(TransportConfig.DEFAULT);
        send(c, "1\n2\n3\n");
        awaitAvailable(c, 6);
        List<Boolean> flushed = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String line = readLine(access, c);
            writeLine(access, c, "+" + line);
            flushed.add(flushIfNoInput(access, c));
        }
        assertEquals(List.of(false, false, true), flushed);
        assertArrayEquals("+1\n+2\n+3\n".getBytes(StandardCharsets.US_ASCII), c.peer().readExactly(9));
    }

    // ---------------------------------------------------------------- helpers

    /** Opens a pair and registers it for closing. */
    protected final Connection open(TransportConfig config) throws Exception {
        Connection c = connect(config);
        connections.add(c);
        return c;
    }

    /** Sends {@code text} from the peer in the transport's charset, honouring the one-byte hook. */
    protected final void send(Connection c, String text) throws Exception {
        Charset cs = c.transport().config().charset();
        send(c, text.getBytes(cs));
    }

    /** Sends {@code bytes} from the peer, one write or one write per byte. */
    protected final void send(Connection c, byte[] bytes) throws Exception {
        if (peerWritesOneByteAtATime()) {
            for (byte b : bytes) {
                c.peer().write(new byte[] {b});
            }
        } else {
            c.peer().write(bytes);
        }
    }

    /**
     * Runs {@code call} on a new thread and returns once that thread is blocked waiting (or done), so
     * that whatever the test does next happens while the transport waits for input.
     */
    protected final <T> Future<T> whileBlocked(Callable<T> call) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                result.complete(call.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "contract-reader");
        t.setDaemon(true);
        t.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!result.isDone() && !isWaiting(t)) {
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionError("reader neither blocked nor finished within 5 s: " + t.getState());
            }
            Thread.onSpinWait();
        }
        assertFalse(result.isDone(), () -> "expected the reader to wait, but it ended: " + result);
        return result;
    }

    /**
     * Whether {@code reader} is waiting for input. By default: parked ({@code WAITING} or {@code
     * TIMED_WAITING}); a transport that waits in a native socket read (state {@code RUNNABLE})
     * overrides this, e.g. by looking at the reader's stack.
     */
    protected boolean isWaiting(Thread reader) {
        Thread.State s = reader.getState();
        return s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING;
    }

    /** The outcome of a {@link #whileBlocked} call, waiting up to 10 seconds. */
    protected static <T> T result(Future<T> f) throws Exception {
        try {
            return f.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception) {
                throw (Exception) e.getCause();
            }
            throw e;
        }
    }

    private Object inFlow(String op, Connection c, Object... args) throws IOException {
        try {
            return flowRunner().start(op, c.transport(), args).toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException) {
                throw (IOException) e.getCause();
            }
            if (e.getCause() instanceof RuntimeException) {
                throw (RuntimeException) e.getCause();
            }
            throw new AssertionError(e.getCause());
        } catch (InterruptedException | java.util.concurrent.TimeoutException e) {
            throw new AssertionError("flow " + op + " did not end within 10 s", e);
        }
    }

    /** One transport operation on the connection's transport. */
    @FunctionalInterface
    private interface Op<T> {
        T on(Transport t) throws IOException;
    }

    /** One transport operation that returns nothing. */
    @FunctionalInterface
    private interface VoidOp {
        void on(Transport t) throws IOException;
    }

    /**
     * Performs one operation as {@code access} says: {@code blocking} (the transport's own method), {@code
     * awaits} (the {@link Awaits} form that replaces its call sites in loaded code), or the flow runner's
     * {@code flowOp} with {@code args}, in a flow.
     */
    @SuppressWarnings("unchecked")
    private <T> T call(Access access, Connection c, Op<T> blocking, Op<T> awaits, String flowOp, Object... args)
            throws IOException {
        switch (access) {
            case BLOCKING:
                return blocking.on(c.transport());
            case AWAITS:
                return awaits.on(c.transport());
            default:
                return (T) inFlow(flowOp, c, args);
        }
    }

    /** {@link #call} for an operation that returns nothing. */
    private void run(Access access, Connection c, VoidOp blocking, VoidOp awaits, String flowOp, Object... args)
            throws IOException {
        call(access, c, t -> {
            blocking.on(t);
            return null;
        }, t -> {
            awaits.on(t);
            return null;
        }, flowOp, args);
    }

    private String readLine(Access access, Connection c) throws IOException {
        return call(access, c, t -> t.readLine(), t -> Awaits.readLine(t), "readLine");
    }

    private int read(Access access, Connection c, byte[] dst, int off, int len) throws IOException {
        return call(access, c, t -> t.read(dst, off, len), t -> Awaits.read(t, dst, off, len), "read", dst, off, len);
    }

    private void writeLine(Access access, Connection c, String line) throws IOException {
        run(access, c, t -> t.writeLine(line), t -> Awaits.writeLine(t, line), "writeLine", line);
    }

    private void write(Access access, Connection c, byte[] src, int off, int len) throws IOException {
        run(access, c, t -> t.write(src, off, len), t -> Awaits.write(t, src, off, len), "write", src, off, len);
    }

    private void flush(Access access, Connection c) throws IOException {
        run(access, c, t -> t.flush(), t -> Awaits.flush(t), "flush");
    }

    private static Line line(String ascii, LineEnding ending) {
        byte[] b = ascii.getBytes(StandardCharsets.UTF_8);
        return new Line(b, 0, b.length, ending);
    }

    private Line readLineBytes(Access access, Connection c) throws IOException {
        return call(access, c, t -> t.readLineBytes(), t -> Awaits.readLineBytes(t), "readLineBytes");
    }

    private Line readLineBytes(Access access, Connection c, LineTerminator terminator, int max) throws IOException {
        return call(access, c, t -> t.readLineBytes(terminator, max), t -> Awaits.readLineBytes(t, terminator, max),
                "readLineBytesWith", terminator, max);
    }

    private long readDotBody(Access access, Connection c, java.io.OutputStream sink, long max) throws IOException {
        return call(access, c, t -> t.readDotBody(sink, max), t -> Awaits.readDotBody(t, sink, max),
                "readDotBody", sink, max);
    }

    private boolean flushIfNoInput(Access access, Connection c) throws IOException {
        return call(access, c, t -> t.flushIfNoInput(), t -> Awaits.flushIfNoInput(t), "flushIfNoInput");
    }

    /** Waits (bounded) until the transport has {@code n} bytes buffered. */
    protected static void awaitAvailable(Connection c, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (c.transport().available() < n) {
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionError("expected " + n + " bytes buffered, got " + c.transport().available());
            }
            Thread.sleep(1);
        }
    }

    private String readLine(Access access, Connection c, LineTerminator terminator, int max) throws IOException {
        return call(access, c, t -> t.readLine(terminator, max), t -> Awaits.readLine(t, terminator, max),
                "readLineWith", terminator, max);
    }

    private void readFully(Access access, Connection c, byte[] dst, int off, int len) throws IOException {
        run(access, c, t -> t.readFully(dst, off, len), t -> Awaits.readFully(t, dst, off, len),
                "readFully", dst, off, len);
    }

    private byte[] readFully(Access access, Connection c, int n) throws IOException {
        return call(access, c, t -> t.readFully(n), t -> Awaits.readFully(t, n), "readFullyN", n);
    }

    private void skip(Access access, Connection c, long n) throws IOException {
        run(access, c, t -> t.skip(n), t -> Awaits.skip(t, n), "skip", n);
    }

    private void writeText(Access access, Connection c, String text) throws IOException {
        run(access, c, t -> t.writeText(text), t -> Awaits.writeText(t, text), "writeText", text);
    }

    private void writeAll(Access access, Connection c, byte[] src) throws IOException {
        run(access, c, t -> t.write(src), t -> Awaits.write(t, src), "writeAll", src);
    }

    private byte[] readToEnd(Access access, Connection c) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] chunk = new byte[3];
        int n;
        while ((n = read(access, c, chunk, 0, chunk.length)) != -1) {
            assertTrue(n > 0, "read returned " + n + " before the end of stream");
            out.write(chunk, 0, n);
        }
        return out.toByteArray();
    }
}
