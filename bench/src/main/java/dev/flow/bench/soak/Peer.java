package dev.flow.bench.soak;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;

/**
 * The kinds of client the soak runs, each a blocking-socket behaviour on 127.0.0.1 with the outcome it
 * expects from the server. A behaviour throws {@link Unexpected} (or an {@link IOException}) when the
 * server does not do what it should; it runs on the client thread that calls it, which counts its
 * outcome in a {@link Tally}.
 */
enum Peer {
    /**
     * Echoes 50 lines (with {@code --lenient}, a {@code PAUSE} halfway), reads a 64 KiB blob, sends QUIT and
     * expects the server to close.
     */
    ECHO(8, 0),
    /** Sends one byte per 100 ms without a newline: the line timeout must close the session. */
    SLOW(3, 0),
    /** Sends half a line, then resets (SO_LINGER 0 close). */
    RESET_MID_LINE(2, 20),
    /** Asks for an 8 MiB blob, reads 32 KiB of it, then resets. */
    RESET_MID_RESPONSE(2, 20),
    /** Asks for a 64 MiB blob and stops reading: the write timeout must close the session. */
    STOP_READING(2, 0),
    /** Sends a line 4 times the limit: the server must close the session without an answer. */
    LONG_LINE(2, 20),
    /** Opens a batch of connections and sends nothing: the idle timeout must close each. */
    IDLE(2, 0),
    /**
     * Announces a 1 GiB body ({@code READ 1073741824}) and trickles it one byte per 200 ms: the request
     * timeout must close the session, and the server must not allocate the body on the peer's word.
     */
    DECLARED_LENGTH(2, 0),
    /** Opens a batch of connections and resets each at once (SO_LINGER 0): counted by the server, not logged one by one. */
    RESET_FLOOD(1, 20),
    /**
     * Sends {@code HOLD n} and {@code n} bytes (a command the server keeps whole until it ends), waits,
     * then ends it: the server either holds it, charged to its input budget, and answers {@code HELD}, or
     * refuses it once holds of all sessions would pass the budget's share for them ({@code REFUSED}, or
     * the connection closed), while the other sessions go on.
     */
    HELD_MEMORY(4, 20);

    private static final int CONNECT_TIMEOUT_MS = 5_000;
    private static final long SLACK_MS = 5_000;
    /** What {@link #runOnce} returns when the server refused a {@link #HELD_MEMORY} command. */
    static final long REFUSED = -2;
    /**
     * What {@link #runOnce} returns when a {@link #HELD_MEMORY} command's connection was closed without an
     * answer once one of the server's timeouts could have closed it (on a loaded machine the exchange can
     * outlast them): not a refusal the input budget must account for.
     */
    static final long TIMED_OUT = -3;

    /** Client threads of this kind at scale 1. */
    final int threads;
    /** Pause after each round, in ms, so that a kind that ends fast does not flood the server with connections. */
    final int pauseMs;

    Peer(int threads, int pauseMs) {
        this.threads = threads;
        this.pauseMs = pauseMs;
    }

    /** Thrown when the server's behaviour is not the expected one. */
    static final class Unexpected extends Exception {
        private static final long serialVersionUID = 1L;

        Unexpected(String message) {
            super(message);
        }
    }

    /** The outcomes of one kind of peer in one soak run, in connections. Thread-safe. */
    static final class Tally {
        final AtomicLong ok = new AtomicLong();
        final AtomicLong cutByRestart = new AtomicLong();
        final AtomicLong bad = new AtomicLong();
        /** Commands of {@link #HELD_MEMORY} peers that the server refused. */
        final AtomicLong refused = new AtomicLong();
        /** Commands of {@link #HELD_MEMORY} peers cut without an answer after a server timeout could have cut them. */
        final AtomicLong timedOut = new AtomicLong();
        /** The longest time, in ms, the server took to close a session the peer expects it to close; -1 if never. */
        final LongAccumulator maxCutMs = new LongAccumulator(Math::max, -1);
    }

    /**
     * Runs one round of this behaviour against the server at {@code address}. Returns how long the
     * server took to close a session this kind expects it to close, in ms, -1 for kinds that close
     * themselves, or {@link #REFUSED} when the server refused a {@link #HELD_MEMORY} command ({@link
     * #TIMED_OUT} when a timeout may have cut it).
     */
    long runOnce(InetSocketAddress address, SoakOptions o, String id) throws IOException, Unexpected,
            InterruptedException {
        switch (this) {
            case ECHO:
                echo(address, id, o.lenient);
                return -1;
            case SLOW:
                return slow(address, o);
            case RESET_MID_LINE:
                resetMidLine(address, id);
                return -1;
            case RESET_MID_RESPONSE:
                resetMidResponse(address);
                return -1;
            case STOP_READING:
                stopReading(address, o);
                return -1;
            case LONG_LINE:
                return longLine(address, o);
            case DECLARED_LENGTH:
                return declaredLength(address, o);
            case RESET_FLOOD:
                resetFlood(address, o);
                return -1;
            case HELD_MEMORY:
                return heldMemory(address, o);
            default:
                return idle(address, o);
        }
    }

    /** The connections one round opens: {@code idleBatch} for {@link #IDLE}, {@code resetBatch} for {@link #RESET_FLOOD}, else 1. */
    int connectionsPerRound(SoakOptions o) {
        return this == IDLE ? o.idleBatch : this == RESET_FLOOD ? o.resetBatch : 1;
    }

    private static Socket connect(InetSocketAddress address, int receiveBuffer) throws IOException {
        Socket s = new Socket();
        try {
            if (receiveBuffer > 0) {
                s.setReceiveBufferSize(receiveBuffer);
            }
            s.setTcpNoDelay(true);
            s.connect(address, CONNECT_TIMEOUT_MS);
            s.setSoTimeout(10_000);
            return s;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    private static void echo(InetSocketAddress address, String id, boolean pause)
            throws IOException, Unexpected, InterruptedException {
        try (Socket s = connect(address, 0)) {
            InputStream in = new BufferedInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            for (int i = 0; i < 50; i++) {
                if (pause && i == 25) {
                    out.write("PAUSE\n".getBytes(StandardCharsets.US_ASCII));
                    String back = readLine(in);
                    if (!"PAUSED".equals(back)) {
                        throw new Unexpected("echo: sent PAUSE, got \"" + back + "\"");
                    }
                }
                String line = "echo " + id + " " + i + " \u00e9\u20ac";
                out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                String back = readLine(in);
                if (!line.equals(back)) {
                    throw new Unexpected("echo: sent \"" + line + "\", got \"" + back + "\"");
                }
                Thread.sleep(1);
            }
            int blob = 64 * 1024;
            out.write(("BLOB " + blob + "\n").getBytes(StandardCharsets.US_ASCII));
            byte[] b = in.readNBytes(blob);
            String end = readLine(in);
            if (b.length != blob || !"".equals(end)) {
                throw new Unexpected("echo: BLOB " + blob + " returned " + b.length + " bytes then \"" + end + "\"");
            }
            out.write("QUIT\n".getBytes(StandardCharsets.US_ASCII));
            if (in.read() != -1) {
                throw new Unexpected("echo: data after QUIT");
            }
        }
    }

    /** Returns the ms the server took to cut the peer. */
    private static long slow(InetSocketAddress address, SoakOptions o) throws IOException, Unexpected {
        try (Socket s = connect(address, 0)) {
            return trickleUntilCut(s, 'z', 100, o.lineTimeout, "slow peer", "line timeout");
        }
    }

    /**
     * Sends {@code b} every {@code pauseMs} until the server closes the connection, which it must do
     * within {@code timeout} plus some slack, without an answer; returns the ms it took from the call.
     */
    private static long trickleUntilCut(Socket s, int b, int pauseMs, Duration timeout, String who, String rule)
            throws IOException, Unexpected {
        long start = System.nanoTime();
        long limitMs = timeout.toMillis() + SLACK_MS;
        while (true) {
            try {
                s.getOutputStream().write(b);
            } catch (IOException closed) {
                return elapsedMs(start);
            }
            long got = drain(s, pauseMs);
            if (got > 0) {
                throw new Unexpected(who + ": " + got + " bytes of answer to a request never sent in full");
            }
            if (got == 0) {
                return elapsedMs(start);
            }
            if (elapsedMs(start) > limitMs) {
                throw new Unexpected(who + ": not cut after " + elapsedMs(start) + " ms (" + rule + " "
                        + timeout.toMillis() + " ms)");
            }
        }
    }

    private static void resetMidLine(InetSocketAddress address, String id) throws IOException {
        try (Socket s = connect(address, 0)) {
            s.getOutputStream().write(("half a line from " + id).getBytes(StandardCharsets.US_ASCII));
            s.setSoLinger(true, 0);
        }
    }

    private static void resetMidResponse(InetSocketAddress address) throws IOException, Unexpected {
        try (Socket s = connect(address, 0)) {
            s.getOutputStream().write("BLOB 8388608\n".getBytes(StandardCharsets.US_ASCII));
            long start = System.nanoTime();
            int got = s.getInputStream().readNBytes(32 * 1024).length;
            if (got != 32 * 1024) {
                // The time tells a server that closed the session (its idle timeout, a stop) from a fast failure.
                throw new Unexpected("reset mid-response: only " + got + " bytes of the blob before end of stream, "
                        + elapsedMs(start) + " ms after the request");
            }
            s.setSoLinger(true, 0);
        }
    }

    private static void stopReading(InetSocketAddress address, SoakOptions o) throws IOException, Unexpected,
            InterruptedException {
        long blob = 64L << 20;
        try (Socket s = connect(address, 8 * 1024)) {
            s.getOutputStream().write(("BLOB " + blob + "\n").getBytes(StandardCharsets.US_ASCII));
            long start = System.nanoTime();
            long pauseMs = o.writeTimeout.toMillis() + 3_000;
            long firstByteMs = awaitFirstByte(s, start, pauseMs);
            long got = drain(s, o.writeTimeout.toMillis() + SLACK_MS);
            if (got < 0) {
                throw new Unexpected("stop reading: session still open " + elapsedMs(start) + " ms after the peer "
                        + "stopped reading (write timeout " + o.writeTimeout.toMillis() + " ms)");
            }
            if (got >= blob) {
                throw new Unexpected("stop reading: the whole " + blob + "-byte blob was sent; the write never timed out ("
                        + (firstByteMs < 0 ? "no byte of it arrived" : "its first byte arrived " + firstByteMs + " ms after the request")
                        + " during the peer's pause of " + pauseMs + " ms; a write times out after "
                        + o.writeTimeout.toMillis() + " ms of the peer not reading)");
            }
        }
    }

    /**
     * Sleeps until {@code pauseMs} after {@code start} without reading, looking every 50 ms whether
     * bytes arrived; returns when the first did (ms after {@code start}), or -1 if none did.
     */
    private static long awaitFirstByte(Socket s, long start, long pauseMs) throws IOException, InterruptedException {
        long first = -1;
        InputStream in = s.getInputStream();
        for (long left = pauseMs - elapsedMs(start); left > 0; left = pauseMs - elapsedMs(start)) {
            Thread.sleep(Math.min(50, left));
            if (first < 0 && in.available() > 0) {
                first = elapsedMs(start);
            }
        }
        return first;
    }

    /** Returns the ms the server took to close the session. */
    private static long longLine(InetSocketAddress address, SoakOptions o) throws IOException, Unexpected {
        try (Socket s = connect(address, 0)) {
            byte[] line = new byte[o.maxLineLength * 4 + 1];
            Arrays.fill(line, (byte) 'y');
            line[line.length - 1] = '\n';
            long start = System.nanoTime();
            try {
                s.getOutputStream().write(line);
            } catch (IOException closed) {
                // the server may close before it has read the whole line
            }
            long got = drain(s, SLACK_MS);
            if (got != 0) {
                throw new Unexpected("long line: " + (got < 0 ? "session not closed" : got + " bytes of answer"));
            }
            return elapsedMs(start);
        }
    }

    /** Returns the ms the server took to cut the peer after its announcement. */
    private static long declaredLength(InetSocketAddress address, SoakOptions o) throws IOException, Unexpected {
        try (Socket s = connect(address, 0)) {
            s.getOutputStream().write(("READ " + o.declaredLength + "\n").getBytes(StandardCharsets.US_ASCII));
            return trickleUntilCut(s, 'd', 200, o.requestTimeout, "declared length", "request timeout");
        }
    }

    private static void resetFlood(InetSocketAddress address, SoakOptions o) throws IOException {
        for (int i = 0; i < o.resetBatch; i++) {
            try (Socket s = connect(address, 0)) {
                s.setSoLinger(true, 0);
            }
        }
    }

    /**
     * Returns -1 if the server held the command and answered {@code HELD n b} with {@code b >= n} (the hold
     * counted the body), {@link #REFUSED} if it refused it: a {@code REFUSED} answer naming the input
     * budget, or the connection closed or reset while the body was sent or the answer awaited, before any
     * of the server's timeouts could have closed it; after that, {@link #TIMED_OUT}.
     */
    private static long heldMemory(InetSocketAddress address, SoakOptions o) throws IOException, Unexpected,
            InterruptedException {
        long start = System.nanoTime();
        try (Socket s = connect(address, 0)) {
            InputStream in = new BufferedInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            try {
                out.write(("HOLD " + o.heldBytes + "\n").getBytes(StandardCharsets.US_ASCII));
                out.write(new byte[o.heldBytes]);
                Thread.sleep(o.holdMs);
                out.write("END\n".getBytes(StandardCharsets.US_ASCII));
            } catch (IOException closed) {
                return cutWithoutAnswer(start, o);
            }
            String answer;
            try {
                answer = readLine(in);
            } catch (SocketTimeoutException silent) {
                // neither an answer nor a cut within the peer's read timeout: unexplained, so it counts
                // where the check on refusals sees it
                return REFUSED;
            } catch (IOException reset) {
                return cutWithoutAnswer(start, o);
            }
            if (answer == null) {
                return cutWithoutAnswer(start, o);
            }
            if (answer.startsWith("REFUSED input budget exhausted")) {
                return REFUSED;
            }
            String[] f = answer.split(" ");
            if (f.length != 3 || !f[0].equals("HELD") || !f[1].equals(Integer.toString(o.heldBytes))
                    || !f[2].matches("[0-9]{1,18}") || Long.parseLong(f[2]) < o.heldBytes) {
                throw new Unexpected("held memory: sent HOLD " + o.heldBytes + ", got \"" + answer + "\"");
            }
            return -1;
        }
    }

    /** {@link #REFUSED} for a command cut without an answer before the server's shortest timeout, else {@link #TIMED_OUT}. */
    private static long cutWithoutAnswer(long start, SoakOptions o) {
        Duration shortest = Collections.min(List.of(o.lineTimeout, o.writeTimeout, o.requestTimeout));
        return System.nanoTime() - start < shortest.toNanos() ? REFUSED : TIMED_OUT;
    }

    /** Returns the ms the server took to close the whole batch. */
    private static long idle(InetSocketAddress address, SoakOptions o) throws IOException, Unexpected {
        Socket[] batch = new Socket[o.idleBatch];
        try {
            long start = System.nanoTime();
            for (int i = 0; i < batch.length; i++) {
                batch[i] = connect(address, 0);
            }
            // idle detection works in whole seconds, checked about once a second
            long limitMs = o.idleTimeout.toMillis() + 2_000 + SLACK_MS;
            for (Socket s : batch) {
                long got = drain(s, Math.max(1, limitMs - elapsedMs(start)));
                if (got != 0) {
                    throw new Unexpected("idle: " + (got < 0 ? "connection not closed after " + elapsedMs(start) + " ms"
                            : got + " bytes received") + " (idle timeout " + o.idleTimeout.toMillis() + " ms)");
                }
            }
            return elapsedMs(start);
        } finally {
            for (Socket s : batch) {
                if (s != null) {
                    s.close();
                }
            }
        }
    }

    /**
     * Reads and discards until the server closes or resets the connection; returns the bytes read,
     * or -1 if it is still open after {@code ms}.
     */
    private static long drain(Socket s, long ms) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        byte[] buf = new byte[64 * 1024];
        long total = 0;
        InputStream in = s.getInputStream();
        while (true) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                return -1;
            }
            s.setSoTimeout((int) Math.min(left, Integer.MAX_VALUE));
            int n;
            try {
                n = in.read(buf);
            } catch (SocketTimeoutException e) {
                return -1;
            } catch (IOException reset) {
                return total;
            }
            if (n < 0) {
                return total;
            }
            total += n;
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int c; (c = in.read()) != '\n'; ) {
            if (c < 0) {
                return null;
            }
            line.write(c);
        }
        return line.toString(StandardCharsets.UTF_8);
    }

    private static long elapsedMs(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }
}
