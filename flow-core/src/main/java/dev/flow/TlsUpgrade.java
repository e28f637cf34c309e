package dev.flow;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * Immutable settings of an in-band TLS upgrade, {@link Transport#startTls(TlsUpgrade)}: STARTTLS in
 * SMTP, IMAP, POP3, XMPP, LDAP or FTP, {@code SSLRequest} in PostgreSQL.
 *
 * <p>Made with {@link #server(SSLContext)} (this side answers the handshake) or {@link
 * #client(SSLContext)} (this side starts it). Defaults: no go-ahead reply, no client authentication, the
 * context's protocols and cipher suites, no peer host (no SNI and no host name check), a handshake
 * timeout of 10 seconds, and plain-text input already buffered at the upgrade {@link
 * PlainInput#DISCARD discarded}. Thread-safe; one instance may serve every session.
 */
public final class TlsUpgrade {

    /** What an upgrade does with plain-text input that arrived after the upgrade command. */
    public enum PlainInput {
        /**
         * Drop it (RFC 3207 §4: the server must discard anything it learned before TLS): a command
         * pipelined after {@code STARTTLS} never runs inside the TLS session (the CVE-2011-0411 class of
         * command injection).
         */
        DISCARD,
        /**
         * Refuse the upgrade with an {@link java.io.IOException} naming the byte count, before anything
         * is written or the handshake starts; the transport stays plain, for the handler to answer and
         * close.
         */
        REJECT
    }

    /** The default handshake timeout: 10 seconds. */
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

    private final SSLContext context;
    private final boolean clientMode;
    private final String goAhead;
    private final boolean needClientAuth;
    private final boolean wantClientAuth;
    private final List<String> protocols;
    private final List<String> cipherSuites;
    private final String peerHost;
    private final int peerPort;
    private final Duration handshakeTimeout;
    private final PlainInput plainInput;

    private TlsUpgrade(Builder b) {
        this.context = b.context;
        this.clientMode = b.clientMode;
        this.goAhead = b.goAhead;
        this.needClientAuth = b.needClientAuth;
        this.wantClientAuth = b.wantClientAuth;
        this.protocols = b.protocols;
        this.cipherSuites = b.cipherSuites;
        this.peerHost = b.peerHost;
        this.peerPort = b.peerPort;
        this.handshakeTimeout = b.handshakeTimeout;
        this.plainInput = b.plainInput;
    }

    /** A builder for the server side: this side waits for the peer's {@code ClientHello}. */
    public static Builder server(SSLContext context) {
        return new Builder(context, false);
    }

    /** A builder for the client side: this side sends the {@code ClientHello} once the upgrade starts. */
    public static Builder client(SSLContext context) {
        return new Builder(context, true);
    }

    /** The context the TLS engine is made from. */
    public SSLContext context() {
        return context;
    }

    /** Whether this side is the TLS client. */
    public boolean clientMode() {
        return clientMode;
    }

    /**
     * The line written in plain text (with the configured line separator) once the transport is ready for
     * the handshake, e.g. {@code "220 2.0.0 Ready to start TLS"}; {@code null} for none. A server that
     * writes its go-ahead itself before {@code startTls} races the peer's {@code ClientHello}: give it
     * here.
     */
    public String goAhead() {
        return goAhead;
    }

    /** Whether the server requires a client certificate. */
    public boolean needClientAuth() {
        return needClientAuth;
    }

    /** Whether the server asks for a client certificate without requiring one. */
    public boolean wantClientAuth() {
        return wantClientAuth;
    }

    /** The enabled protocols; empty for the context's defaults. */
    public List<String> protocols() {
        return protocols;
    }

    /** The enabled cipher suites; empty for the context's defaults. */
    public List<String> cipherSuites() {
        return cipherSuites;
    }

    /** The peer's host name (client side: sent as SNI and checked against the certificate), or {@code null}. */
    public String peerHost() {
        return peerHost;
    }

    /** The peer's port given with {@link #peerHost()}, or {@code -1}. */
    public int peerPort() {
        return peerPort;
    }

    /** How long the handshake may take before the session is closed; never zero. */
    public Duration handshakeTimeout() {
        return handshakeTimeout;
    }

    /** What happens to plain-text input buffered when the upgrade starts. */
    public PlainInput plainInput() {
        return plainInput;
    }

    @Override
    public String toString() {
        return "TlsUpgrade[" + (clientMode ? "client" : "server") + ", handshakeTimeout=" + handshakeTimeout.toMillis()
                + " ms, plainInput=" + plainInput + (peerHost != null ? ", peer=" + peerHost + ":" + peerPort : "") + "]";
    }

    /** Builds a {@link TlsUpgrade}; not thread-safe. */
    public static final class Builder {
        private final SSLContext context;
        private final boolean clientMode;
        private String goAhead;
        private boolean needClientAuth;
        private boolean wantClientAuth;
        private List<String> protocols = List.of();
        private List<String> cipherSuites = List.of();
        private String peerHost;
        private int peerPort = -1;
        private Duration handshakeTimeout = DEFAULT_HANDSHAKE_TIMEOUT;
        private PlainInput plainInput = PlainInput.DISCARD;

        private Builder(SSLContext context, boolean clientMode) {
            this.context = Objects.requireNonNull(context, "context");
            this.clientMode = clientMode;
        }

        /** Sets the plain-text line written when the transport is ready for the handshake; see {@link TlsUpgrade#goAhead()}. */
        public Builder goAhead(String line) {
            Objects.requireNonNull(line, "line");
            if (line.indexOf('\n') >= 0 || line.indexOf('\r') >= 0) {
                throw new IllegalArgumentException("goAhead: " + line.strip() + " (expected: one line without CR or LF)");
            }
            this.goAhead = line;
            return this;
        }

        /** Requires a client certificate (server side). */
        public Builder needClientAuth(boolean need) {
            this.needClientAuth = need;
            return this;
        }

        /** Asks for a client certificate without requiring one (server side). */
        public Builder wantClientAuth(boolean want) {
            this.wantClientAuth = want;
            return this;
        }

        /** Sets the enabled protocols, e.g. {@code "TLSv1.3", "TLSv1.2"}. */
        public Builder protocols(String... protocols) {
            this.protocols = List.of(protocols);
            return this;
        }

        /** Sets the enabled cipher suites. */
        public Builder cipherSuites(String... suites) {
            this.cipherSuites = List.of(suites);
            return this;
        }

        /**
         * Names the peer (client side): {@code host} is sent as SNI and checked against the server's
         * certificate (the {@code HTTPS} endpoint identification of RFC 2818, which mail and LDAP clients use too).
         *
         * @throws IllegalArgumentException if {@code port} is not in 0..65535
         */
        public Builder peer(String host, int port) {
            Objects.requireNonNull(host, "host");
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port: " + port + " (expected: 0..65535)");
            }
            this.peerHost = host;
            this.peerPort = port;
            return this;
        }

        /**
         * Sets how long the handshake may take (default 10 s); after it the session is closed.
         *
         * @throws IllegalArgumentException if {@code timeout} is zero or negative
         */
        public Builder handshakeTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isZero() || timeout.isNegative()) {
                throw new IllegalArgumentException("handshakeTimeout: " + timeout + " (expected: > 0)");
            }
            this.handshakeTimeout = timeout;
            return this;
        }

        /** Sets what happens to plain-text input buffered when the upgrade starts (default {@link PlainInput#DISCARD}). */
        public Builder plainInput(PlainInput policy) {
            this.plainInput = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** Builds the immutable settings. */
        public TlsUpgrade build() {
            if (clientMode && goAhead != null) {
                throw new IllegalStateException("goAhead: " + goAhead + " (expected: none on the client side, which"
                        + " reads the server's go-ahead before it upgrades)");
            }
            return new TlsUpgrade(this);
        }
    }
}
