package dev.flow;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * Immutable limits and timeouts of a {@link Transport}.
 *
 * <p>Defaults: UTF-8, maximum line length 8192 characters, no read timeout, no write timeout
 * ({@link Duration#ZERO} means "wait forever"). Instances are validated once, when built.
 */
public final class TransportConfig {

    /** The default configuration. */
    public static final TransportConfig DEFAULT = builder().build();

    private final Charset charset;
    private final int maxLineLength;
    private final Duration readTimeout;
    private final Duration writeTimeout;

    private TransportConfig(Builder b) {
        this.charset = b.charset;
        this.maxLineLength = b.maxLineLength;
        this.readTimeout = b.readTimeout;
        this.writeTimeout = b.writeTimeout;
    }

    /** Returns a builder initialised with the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Returns a builder initialised with this configuration. */
    public Builder toBuilder() {
        return new Builder().charset(charset).maxLineLength(maxLineLength)
                .readTimeout(readTimeout).writeTimeout(writeTimeout);
    }

    /** The charset lines are encoded and decoded with. */
    public Charset charset() {
        return charset;
    }

    /** The longest line, in characters, that {@link Transport#readLine()} accepts. */
    public int maxLineLength() {
        return maxLineLength;
    }

    /** How long a read may wait; {@link Duration#ZERO} waits forever. */
    public Duration readTimeout() {
        return readTimeout;
    }

    /** How long a write may wait; {@link Duration#ZERO} waits forever. */
    public Duration writeTimeout() {
        return writeTimeout;
    }

    @Override
    public String toString() {
        return "TransportConfig[charset=" + charset + ", maxLineLength=" + maxLineLength
                + ", readTimeout=" + readTimeout + ", writeTimeout=" + writeTimeout + "]";
    }

    /** Builds a {@link TransportConfig}. Not thread-safe. */
    public static final class Builder {
        private Charset charset = StandardCharsets.UTF_8;
        private int maxLineLength = 8192;
        private Duration readTimeout = Duration.ZERO;
        private Duration writeTimeout = Duration.ZERO;

        private Builder() {
        }

        /** Sets the charset; default UTF-8. */
        public Builder charset(Charset charset) {
            this.charset = Objects.requireNonNull(charset, "charset");
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

        /** Sets the write timeout; {@link Duration#ZERO} (the default) waits forever. */
        public Builder writeTimeout(Duration writeTimeout) {
            this.writeTimeout = checkTimeout("writeTimeout", writeTimeout);
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
