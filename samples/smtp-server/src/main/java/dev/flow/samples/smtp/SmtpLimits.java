package dev.flow.samples.smtp;

import java.time.Duration;
import java.util.Objects;

/**
 * The limits and timeouts of an SMTP session, validated by {@link SmtpProtocol}.
 *
 * @param hostname the name the server greets with
 * @param maxRecipients the most recipients of one message; more get {@code 452 4.5.3} (default 100, RFC
 *     5321 §4.5.3.1.8's minimum)
 * @param maxMessageBytes the largest message, advertised as {@code SIZE} (default 10 MiB); a larger one gets
 *     {@code 552 5.3.4}
 * @param maxLineBytes the longest command or text line, terminator excluded (default 998, RFC 5321
 *     §4.5.3.1.6); a longer one gets {@code 500 5.5.6} and the session ends
 * @param commandTimeout how long the server waits for a command (default 5 min, RFC 5321 §4.5.3.2.7)
 * @param dataTimeout how long a whole message may take from {@code 354} to its final dot (default 10 min,
 *     the client's DATA termination timeout of §4.5.3.2.6)
 * @param maxErrors bad commands after which the session is closed with {@code 421} (default 10)
 */
public record SmtpLimits(String hostname, int maxRecipients, int maxMessageBytes, int maxLineBytes,
                         Duration commandTimeout, Duration dataTimeout, int maxErrors) {
    /** Checks the values. */
    public SmtpLimits {
        Objects.requireNonNull(hostname, "hostname");
        Objects.requireNonNull(commandTimeout, "commandTimeout");
        Objects.requireNonNull(dataTimeout, "dataTimeout");
    }
}
