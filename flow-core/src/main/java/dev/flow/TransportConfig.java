package dev.flow;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * Immutable limits and timeouts of a {@link Transport}.
 *
 * <p>Defaults: UTF-8, lenient decoding (malformed input becomes U+FFFD), lines ending at {@link
 * LineTerminator#LF_OR_CRLF}, written lines ending with {@code "\n"}, maximum line length 8192
 * characters, and no read, line, request, idle or write timeout ({@link Duration#ZERO} means "wait
 * forever"). Instances are validated once, when built. Thread-safe.
 *
 * <p><b>Slow peers.</b> {@link #idleTimeout()} and {@link #readTimeout()} restart with every byte, so a
 * peer that trickles one byte at a time never trips them. {@link #requestTimeout()} bounds a whole
 * request instead: a request runs from its first byte until the handler calls {@link
 * Transport#endRequest()} or writes, and a read that has to wait for it after {@code requestTimeout}
 * plus one second per {@link #minRequestRate()} bytes received fails with a {@link
 * java.net.SocketTimeoutException}.
 */
public final class TransportConfig {

    /** The default configuration. */
    public static final TransportConfig DEFAULT = builder().build();

    private final Charset charset;
    private final boolean strictDecoding;
    private final LineTerminator lineTerminator;
    private final String lineSeparator;
    private final int maxLineLength;
    private final Duration readTimeout;
    private final Duration lineTimeout;
    private final Duration idleTimeout;
    private final Duration writeTimeout;
    private final Duration requestTimeout;
    private final long minRequestRate;

    private TransportConfig(Builder b) {
        this.charset = b.charset;
        this.strictDecoding = b.strictDecoding;
        this.lineTerminator = b.lineTerminator;
        this.lineSeparator = b.lineSeparator;
        this.maxLineLength = b.maxLineLength;
        this.readTimeout = b.readTimeout;
        this.lineTimeout = b.lineTimeout;
        this.idleTimeout = b.idleTimeout;
        this.writeTimeout = b.writeTimeout;
        this.requestTimeout = b.requestTimeout;
        this.minRequestRate = b.minRequestRate;
    }

    /** Returns a builder initialised with the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Returns a builder initialised with this configuration. */
    public Builder toBuilder() {
        return new Builder().charset(charset).strictDecoding(strictDecoding).lineTerminator(lineTerminator)
                .lineSeparator(lineSeparator).maxLineLength(maxLineLength).readTimeout(readTimeout)
                .lineTimeout(lineTimeout).idleTimeout(idleTimeout).writeTimeout(writeTimeout)
                .requestTimeout(requestTimeout).minRequestRate(minRequestRate);
    }

    /** The charset lines and text are encoded and decoded with. */
    public Charset charset() {
        return charset;
    }

    /**
     * Whether a line that is not valid in {@link #charset()} fails with a {@link
     * java.nio.charset.MalformedInputException} naming the connection ({@code true}) or is decoded
     * with U+FFFD replacing the bad bytes ({@code false}, the default).
     */
    public boolean strictDecoding() {
        return strictDecoding;
    }

    /** Where {@link Transport#readLine()} ends a line. */
    public LineTerminator lineTerminator() {
        return lineTerminator;
    }

    /** What {@link Transport#writeLine(String)} appends: {@code "\n"} or {@code "\r\n"}. */
    public String lineSeparator() {
        return lineSeparator;
    }

    /** The longest line, in characters, that {@link Transport#readLine()} accepts. */
    public int maxLineLength() {
        return maxLineLength;
    }

    /** How long a read may wait for the next bytes; {@link Duration#ZERO} waits forever. */
    public Duration readTimeout() {
        return readTimeout;
    }

    /**
     * How long a line may take to arrive completely, counted from the moment its first byte is seen
     * by a waiting {@code readLine} (or from the call, if bytes were already buffered); {@link
     * Duration#ZERO} waits forever. Unlike {@link #readTimeout()} it cannot be reset by a peer
     * that sends one byte at a time.
     */
    public Duration lineTimeout() {
        return lineTimeout;
    }

    /**
     * How long a connection may stay without any input or output before the transport closes it;
     * {@link Duration#ZERO} never closes it. Checked about once a second, in whole seconds rounded
     * up, by transports that rely on their I/O framework's idle detection (MINA). A busy server does
     * not make a peer idle: the MINA transport does not close a session whose input the handler has
     * not read yet (unless a write waits for the peer), nor one whose bytes its held I/O thread could
     * not read, nor one whose handler has read its request and is busy (computing, or waiting for
     * anything but the peer's input, a write or a TLS handshake); a read's wait counts from its start.
     */
    public Duration idleTimeout() {
        return idleTimeout;
    }

    /**
     * How long a write or flush may wait; {@link Duration#ZERO} waits forever. A write that times
     * out closes the connection at once: the bytes still queued can no longer be trusted to go out.
     */
    public Duration writeTimeout() {
        return writeTimeout;
    }

    /**
     * How long a request may take to arrive; {@link Duration#ZERO} (the default) waits forever. A
     * request starts at its first byte, as seen by a read (a byte already buffered when the read is
     * called, or the first to arrive while it waits), and ends when the handler calls {@link
     * Transport#endRequest()} or writes (an answer means the request was read). While a request runs,
     * a read that has to wait fails with a {@link java.net.SocketTimeoutException} naming {@code
     * requestTimeout} once the request is older than {@code requestTimeout} plus one second for every
     * {@link #minRequestRate()} bytes received since it started. Waits between requests are not
     * bounded by it (see {@link #idleTimeout()}); a read that finds its bytes buffered never fails by it.
     * Honoured by the MINA transport; the deadline is checked when a read waits, never per byte.
     */
    public Duration requestTimeout() {
        return requestTimeout;
    }

    /**
     * The rate, in bytes per second, at which a request earns more time: each {@code minRequestRate}
     * bytes received extend {@link #requestTimeout()} by one second, so a large request that keeps
     * arriving at least that fast is never cut off, while a peer trickling below it is, at about {@code
     * requestTimeout} after its first byte. {@code 0} (the default): no extension, a request must
     * arrive within {@code requestTimeout}.
     */
    public long minRequestRate() {
        return minRequestRate;
    }

    @Override
    public String toString() {
        return "TransportConfig[charset=" + charset + ", strictDecoding=" + strictDecoding
                + ", lineTerminator=" + lineTerminator + ", lineSeparator=" + escape(lineSeparator)
                + ", maxLineLength=" + maxLineLength + ", readTimeout=" + readTimeout
                + ", lineTimeout=" + lineTimeout + ", idleTimeout=" + idleTimeout
                + ", writeTimeout=" + writeTimeout + ", requestTimeout=" + requestTimeout
                + ", minRequestRate=" + minRequestRate + "]";
    }

    private static String escape(String s) {
        return s.replace("\r", "\\r").replace("\n", "\\n");
    }

    /** Builds a {@link TransportConfig}. Not thread-safe. */
    public static final class Builder {
        private Charset charset = StandardCharsets.UTF_8;
        private boolean strictDecoding;
        private LineTerminator lineTerminator = LineTerminator.LF_OR_CRLF;
        private String lineSeparator = "\n";
        private int maxLineLength = 8192;
        private Duration readTimeout = Duration.ZERO;
        private Duration lineTimeout = Duration.ZERO;
        private Duration idleTimeout = Duration.ZERO;
        private Duration writeTimeout = Duration.ZERO;
        private Duration requestTimeout = Duration.ZERO;
        private long minRequestRate;

        private Builder() {
        }

        /** Sets the charset; default UTF-8. */
        public Builder charset(Charset charset) {
            this.charset = Objects.requireNonNull(charset, "charset");
            return this;
        }

        /** Makes malformed input fail the read instead of decoding to U+FFFD; default {@code false}. */
        public Builder strictDecoding(boolean strictDecoding) {
            this.strictDecoding = strictDecoding;
            return this;
        }

        /** Sets where {@link Transport#readLine()} ends a line; default {@link LineTerminator#LF_OR_CRLF}. */
        public Builder lineTerminator(LineTerminator lineTerminator) {
            this.lineTerminator = Objects.requireNonNull(lineTerminator, "lineTerminator");
            return this;
        }

        /** Sets what {@link Transport#writeLine(String)} appends: {@code "\n"} (the default) or {@code "\r\n"}. */
        public Builder lineSeparator(String lineSeparator) {
            Objects.requireNonNull(lineSeparator, "lineSeparator");
            if (!lineSeparator.equals("\n") && !lineSeparator.equals("\r\n")) {
                throw new IllegalArgumentException("lineSeparator: \"" + escape(lineSeparator)
                        + "\" (expected: \"\\n\" or \"\\r\\n\")");
            }
            this.lineSeparator = lineSeparator;
            return this;
        }

        /** Sets the maximum line length in characters; default 8192, must be &gt; 0. */
        public Builder maxLineLength(int maxLineLength) {
            if (maxLineLength <= 0) {
                throw new IllegalArgumentException("maxLineLength: " + maxLineLength + " (expected: > 0)");
            }
            this.maxLineLength = maxLineLength;
            return this;
        }

        /** Sets the read timeout; {@link Duration#ZERO} (the default) waits forever. */
        public Builder readTimeout(Duration readTimeout) {
            this.readTimeout = checkTimeout("readTimeout", readTimeout);
            return this;
        }

        /** Sets the deadline for a complete line; {@link Duration#ZERO} (the default) waits forever. */
        public Builder lineTimeout(Duration lineTimeout) {
            this.lineTimeout = checkTimeout("lineTimeout", lineTimeout);
            return this;
        }

        /** Sets the idle timeout; {@link Duration#ZERO} (the default) never closes an idle connection. */
        public Builder idleTimeout(Duration idleTimeout) {
            this.idleTimeout = checkTimeout("idleTimeout", idleTimeout);
            return this;
        }

        /** Sets the write timeout; {@link Duration#ZERO} (the default) waits forever. */
        public Builder writeTimeout(Duration writeTimeout) {
            this.writeTimeout = checkTimeout("writeTimeout", writeTimeout);
            return this;
        }

        /**
         * Sets how long a request may take to arrive (see {@link TransportConfig#requestTimeout()});
         * {@link Duration#ZERO} (the default) waits forever.
         */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = checkTimeout("requestTimeout", requestTimeout);
            return this;
        }

        /**
         * Sets the bytes per second that extend the request timeout by one second (see {@link
         * TransportConfig#minRequestRate()}); default 0 (no extension), must be &gt;= 0.
         */
        public Builder minRequestRate(long bytesPerSecond) {
            if (bytesPerSecond < 0) {
                throw new IllegalArgumentException("minRequestRate: " + bytesPerSecond + " (expected: >= 0)");
            }
            this.minRequestRate = bytesPerSecond;
            return this;
        }

        /** Returns the configuration. */
        public TransportConfig build() {
            return new TransportConfig(this);
        }

        private static Duration checkTimeout(String name, Duration d) {
            Objects.requireNonNull(d, name);
            if (d.isNegative()) {
                throw new IllegalArgumentException(name + ": " + d + " (expected: >= 0)");
            }
            return d;
        }
    }
}
