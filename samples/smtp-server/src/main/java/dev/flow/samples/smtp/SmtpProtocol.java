package dev.flow.samples.smtp;

import dev.flow.LineTerminator;
import dev.flow.TlsUpgrade;
import dev.flow.TransportConfig;
import dev.flow.samples.launcher.SampleProtocol;
import dev.flow.samples.launcher.SlowPeerSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * The SMTP sample for {@link dev.flow.samples.launcher.SampleServer}: settings, the shared {@link
 * MailStore} and, with {@code --keystore}, the TLS settings of STARTTLS. The per-state timeouts are
 * deadlines the session sets ({@code --command-timeout-ms}, {@code --data-timeout-ms}); the request timeout
 * of {@link SlowPeerSettings} still bounds a slow peer. Replies are written in ISO-8859-1 with CRLF.
 * Immutable.
 */
public final class SmtpProtocol implements SampleProtocol {

    static final Setting HOSTNAME = new Setting("hostname", "localhost", "the name the server greets with");
    static final Setting KEYSTORE = new Setting("keystore", "",
            "PKCS12 or JKS key store with the server's key and certificate; STARTTLS is offered when given");
    static final Setting KEYSTORE_PASSWORD = new Setting("keystore-password", "", "the key store's password");
    static final Setting MAX_RECIPIENTS = new Setting("max-recipients", "100", "most recipients of one message");
    static final Setting MAX_MESSAGE = new Setting("max-message-bytes", String.valueOf(10 << 20),
            "largest message, bytes (advertised as SIZE)");
    static final Setting MAX_LINE = new Setting("max-line-bytes", "998",
            "longest command or text line without its CRLF, bytes");
    static final Setting COMMAND_TIMEOUT = new Setting("command-timeout-ms", "300000", "wait for a command, ms");
    static final Setting DATA_TIMEOUT = new Setting("data-timeout-ms", "600000",
            "a whole message, from 354 to its final dot, ms");
    static final Setting STORE_DIR = new Setting("store-dir", "",
            "write messages to this directory; default: keep the latest in memory");
    static final Setting STORE_MESSAGES = new Setting("store-max-messages", "10000", "messages kept in memory");
    static final Setting STORE_BYTES = new Setting("store-max-mib", "256", "MiB of messages kept in memory");

    @Override
    public String name() {
        return "smtp-server";
    }

    @Override
    public String handlerClass() {
        return "dev.flow.samples.smtp.protocol.SmtpSession";
    }

    @Override
    public List<Setting> settings() {
        return List.of(HOSTNAME, KEYSTORE, KEYSTORE_PASSWORD, MAX_RECIPIENTS, MAX_MESSAGE, MAX_LINE, COMMAND_TIMEOUT,
                DATA_TIMEOUT, STORE_DIR, STORE_MESSAGES, STORE_BYTES, SlowPeerSettings.REQUEST_TIMEOUT,
                SlowPeerSettings.MIN_REQUEST_RATE);
    }

    /** A new store per server, the limits, and the STARTTLS settings if a key store is given. */
    @Override
    public Setup setup(Map<String, String> values) {
        SmtpLimits limits = limits(values);
        TransportConfig config = SlowPeerSettings.apply(TransportConfig.builder(), values)
                .charset(StandardCharsets.ISO_8859_1)
                .lineTerminator(LineTerminator.LF_OR_CRLF)
                .lineSeparator("\r\n")
                .maxLineLength(limits.maxLineBytes())
                .writeTimeout(Duration.ofMinutes(1))
                .build();
        return new Setup(config, List.of(store(values), limits, tls(values)));
    }

    /** The limits given in {@code values}, or their defaults. */
    static SmtpLimits limits(Map<String, String> values) {
        String host = values.getOrDefault(HOSTNAME.name(), HOSTNAME.defaultValue());
        if (host.isEmpty() || !host.matches("[A-Za-z0-9.\\-\\[\\]:]+")) {
            throw new IllegalArgumentException("--hostname: " + host + " (expected: a domain or address literal)");
        }
        return new SmtpLimits(host, MAX_RECIPIENTS.intValue(values, 1, 1_000_000),
                MAX_MESSAGE.intValue(values, 1, Integer.MAX_VALUE - 8), MAX_LINE.intValue(values, 510, 1 << 20),
                millis(COMMAND_TIMEOUT, values), millis(DATA_TIMEOUT, values), 10);
    }

    private static Duration millis(Setting s, Map<String, String> values) {
        return Duration.ofMillis(s.intValue(values, 1, Integer.MAX_VALUE));
    }

    private static MailStore store(Map<String, String> values) {
        String dir = values.getOrDefault(STORE_DIR.name(), "");
        if (!dir.isEmpty()) {
            try {
                return new DirectoryMailStore(Path.of(dir));
            } catch (IOException e) {
                throw new IllegalArgumentException("--store-dir: " + dir + " (expected: a writable directory: " + e + ")");
            }
        }
        return new MemoryMailStore(STORE_MESSAGES.intValue(values, 1, Integer.MAX_VALUE),
                (long) STORE_BYTES.intValue(values, 1, 1 << 20) << 20);
    }

    /** The STARTTLS settings over {@code --keystore}, or empty without one. */
    private static Optional<TlsUpgrade> tls(Map<String, String> values) {
        String file = values.getOrDefault(KEYSTORE.name(), "");
        if (file.isEmpty()) {
            if (values.containsKey(KEYSTORE_PASSWORD.name())) {
                throw new IllegalArgumentException("--keystore-password given without --keystore");
            }
            return Optional.empty();
        }
        char[] password = values.getOrDefault(KEYSTORE_PASSWORD.name(), "").toCharArray();
        Path path = Path.of(file);
        if (!Files.isReadable(path)) {
            throw new IllegalArgumentException("--keystore: " + file + " (expected: a readable key store file)");
        }
        try {
            KeyStore ks = KeyStore.getInstance(path.toFile(), password);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, password);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), null, null);
            return Optional.of(TlsUpgrade.server(context).goAhead("220 2.0.0 Ready to start TLS").build());
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("--keystore: " + file + " (expected: a PKCS12 or JKS key store that"
                    + " --keystore-password opens: " + e.getMessage() + ")");
        }
    }
}
