package dev.flow.samples.smtp.protocol;

import dev.flow.BodyTooLargeException;
import dev.flow.Deadline;
import dev.flow.Line;
import dev.flow.LineEnding;
import dev.flow.LineTerminator;
import dev.flow.LineTooLongException;
import dev.flow.SessionOutcome;
import dev.flow.TlsUpgrade;
import dev.flow.Transport;
import dev.flow.samples.smtp.MailStore;
import dev.flow.samples.smtp.SmtpLimits;
import dev.flow.samples.wire.OutputBuffer;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * One SMTP connection (RFC 5321): greets, then serves EHLO/HELO, MAIL (with {@code SIZE} and {@code
 * BODY=8BITMIME}), RCPT (up to {@link SmtpLimits#maxRecipients()}), DATA (dot-unstuffed, stored byte for
 * byte), RSET, NOOP, HELP, VRFY and EXPN (refused with {@code 252}/{@code 502}), QUIT, and with TLS
 * settings STARTTLS (RFC 3207: the session starts over inside TLS, plain text pipelined after the
 * command is discarded). Replies to pipelined commands (RFC 2920) are batched: assembled in an {@link
 * OutputBuffer} and written in one write, flushed, when the input runs dry (no further command is
 * buffered), so a client that pipelines a whole transaction gets its four replies in one packet. Lines are read as bytes: a command ended by a
 * bare LF, a line over the limit or too many bad commands end the session with a {@code 500} or {@code
 * 421}. Each state has its own timeout, set as a {@link Transport#deadline} around its reads: {@link
 * SmtpLimits#commandTimeout()} for a command, {@link SmtpLimits#dataTimeout()} for a whole message
 * body; one that expires ends the session with {@code 421}. The session records how it ended ({@link
 * Transport#recordOutcome}).
 *
 * <p>Thread model: one flow (or thread) per connection; shares only the thread-safe store.
 */
public final class SmtpSession implements Callable<String> {

    private static final int BATCH_BYTES = 16 * 1024;

    private final Transport transport;
    private final MailStore store;
    private final SmtpLimits limits;
    private final Optional<TlsUpgrade> tls;
    /** Replies not written yet: a batch goes out in one write when the input runs dry. */
    private final OutputBuffer out = new OutputBuffer(512);

    /** The client's EHLO/HELO name, {@code null} before one. */
    private String helo;
    private boolean extended;
    /** The reverse path of the transaction, {@code null} outside one. */
    private String from;
    private final List<String> recipients = new ArrayList<>();
    private boolean secured;
    private int errors;
    private int accepted;

    /** Creates the session of one connection; {@code tls} empty: STARTTLS is not offered. */
    public SmtpSession(Transport transport, MailStore store, SmtpLimits limits, Optional<TlsUpgrade> tls) {
        this.transport = transport;
        this.store = store;
        this.limits = limits;
        this.tls = tls;
    }

    /** Serves the connection; returns how it ended ("quit", "eof", "timeout", ...) and how many messages it accepted. */
    @Override
    public String call() throws IOException {
        String outcome;
        try {
            reply("220 " + limits.hostname() + " ESMTP Flow sample ready");
            out.send(transport);
            outcome = serve();
        } catch (LineTooLongException e) {
            outcome = end(SessionOutcome.PROTOCOL_ERROR, "500 5.5.6 Line too long (expected: at most "
                    + limits.maxLineBytes() + " bytes)", "line too long");
        } catch (SocketTimeoutException e) {
            outcome = end(SessionOutcome.TIMED_OUT, "421 4.4.2 " + limits.hostname() + " timeout, closing connection",
                    "timeout");
        } catch (EOFException e) {
            transport.recordOutcome(SessionOutcome.CLOSED_BY_PEER);
            outcome = "eof in data";
        }
        return outcome + ", " + accepted + " accepted";
    }

    /** Answers a session-ending error (if the peer is still there) and records the outcome. */
    private String end(SessionOutcome how, String reply, String outcome) {
        transport.recordOutcome(how);
        try {
            reply(reply);
            out.send(transport);
        } catch (IOException e) {
            // The peer is gone: nothing to tell it.
        }
        return outcome;
    }

    private String serve() throws IOException {
        for (;;) {
            Line line;
            try (Deadline d = transport.deadline(limits.commandTimeout())) {
                line = transport.readLineBytes(LineTerminator.LF_OR_CRLF, limits.maxLineBytes());
            }
            if (line == null || line.ending() == LineEnding.END_OF_STREAM) {
                transport.recordOutcome(SessionOutcome.CLOSED_BY_PEER);
                return "eof";
            }
            if (line.ending() == LineEnding.LF) {
                return end(SessionOutcome.PROTOCOL_ERROR, "500 5.5.2 Bare LF received (expected: CRLF line ends)",
                        "bare LF");
            }
            transport.endRequest();
            String outcome = command(line.text(StandardCharsets.ISO_8859_1));
            if (outcome != null) {
                return outcome;
            }
            if (errors >= limits.maxErrors()) {
                return end(SessionOutcome.PROTOCOL_ERROR, "421 4.7.0 Too many errors, closing connection",
                        "too many errors");
            }
            out.sendWhenDry(transport, BATCH_BYTES);
        }
    }

    /** Runs one command line; returns {@code null} to go on, else how the session ended. */
    private String command(String line) throws IOException {
        int sp = line.indexOf(' ');
        String verb = (sp < 0 ? line : line.substring(0, sp)).toUpperCase(Locale.ROOT);
        String arg = sp < 0 ? "" : line.substring(sp + 1).strip();
        switch (verb) {
            case "EHLO":
            case "HELO":
                hello(verb, arg);
                return null;
            case "MAIL":
                mail(arg);
                return null;
            case "RCPT":
                rcpt(arg);
                return null;
            case "DATA":
                return data(arg);
            case "RSET":
                resetTransaction();
                reply("250 2.0.0 OK");
                return null;
            case "NOOP":
                reply("250 2.0.0 OK");
                return null;
            case "HELP":
                reply("214 2.0.0 EHLO HELO MAIL RCPT DATA RSET NOOP QUIT" + (tls.isPresent() ? " STARTTLS" : ""));
                return null;
            case "VRFY":
                reply("252 2.5.0 Cannot VRFY user, but will accept message for delivery");
                return null;
            case "EXPN":
                reply("502 5.5.1 EXPN not supported");
                return null;
            case "QUIT":
                reply("221 2.0.0 " + limits.hostname() + " closing connection");
                out.send(transport);
                transport.recordOutcome(SessionOutcome.COMPLETED);
                return "quit";
            case "STARTTLS":
                return startTls(arg);
            default:
                bad("500 5.5.2 Command not recognized");
                return null;
        }
    }

    private void hello(String verb, String domain) {
        if (domain.isEmpty() || domain.indexOf(' ') >= 0) {
            bad("501 5.5.4 Syntax: " + verb + " domain");
            return;
        }
        resetTransaction();
        helo = domain;
        extended = verb.equals("EHLO");
        if (!extended) {
            reply("250 " + limits.hostname() + " greets " + domain);
            return;
        }
        reply("250-" + limits.hostname() + " greets " + domain);
        reply("250-PIPELINING");
        reply("250-SIZE " + limits.maxMessageBytes());
        if (tls.isPresent() && !secured) {
            reply("250-STARTTLS");
        }
        reply("250-ENHANCEDSTATUSCODES");
        reply("250 8BITMIME");
    }

    private void mail(String arg) {
        if (helo == null) {
            bad("503 5.5.1 Send EHLO or HELO first");
            return;
        }
        if (from != null) {
            bad("503 5.5.1 Nested MAIL command");
            return;
        }
        Path p = path(arg, "FROM:");
        if (p == null) {
            bad("501 5.5.4 Syntax: MAIL FROM:<address> [SIZE=n] [BODY=7BIT|8BITMIME]");
            return;
        }
        for (String param : p.params) {
            int eq = param.indexOf('=');
            String key = (eq < 0 ? param : param.substring(0, eq)).toUpperCase(Locale.ROOT);
            String value = eq < 0 ? "" : param.substring(eq + 1);
            if (key.equals("SIZE") && extended && value.matches("[0-9]{1,18}")) {
                if (Long.parseLong(value) > limits.maxMessageBytes()) {
                    reply("552 5.3.4 Message size exceeds fixed maximum message size (" + limits.maxMessageBytes() + ")");
                    return;
                }
            } else if (!(key.equals("BODY") && extended
                    && (value.equalsIgnoreCase("7BIT") || value.equalsIgnoreCase("8BITMIME")))) {
                bad("555 5.5.4 MAIL parameter not recognized: " + param);
                return;
            }
        }
        from = p.address;
        reply("250 2.1.0 OK");
    }

    private void rcpt(String arg) {
        if (from == null) {
            bad("503 5.5.1 Send MAIL first");
            return;
        }
        Path p = path(arg, "TO:");
        if (p == null || p.address.isEmpty() || !p.params.isEmpty()) {
            bad("501 5.5.4 Syntax: RCPT TO:<address>");
            return;
        }
        if (recipients.size() >= limits.maxRecipients()) {
            reply("452 4.5.3 Too many recipients (expected: at most " + limits.maxRecipients() + ")");
            return;
        }
        recipients.add(p.address);
        reply("250 2.1.5 OK");
    }

    private String data(String arg) throws IOException {
        if (!arg.isEmpty()) {
            bad("501 5.5.4 Syntax: DATA");
            return null;
        }
        if (from == null) {
            bad("503 5.5.1 Send MAIL first");
            return null;
        }
        if (recipients.isEmpty()) {
            reply("554 5.5.1 No valid recipients");
            return null;
        }
        reply("354 Start mail input; end with <CRLF>.<CRLF>");
        // Sent now unless the body is already buffered (a client that did not wait for the 354).
        out.sendWhenDry(transport, BATCH_BYTES);
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        try (Deadline d = transport.deadline(limits.dataTimeout())) {
            transport.readDotBody(message, limits.maxMessageBytes());
        } catch (BodyTooLargeException e) {
            reply("552 5.3.4 Message size exceeds fixed maximum message size (" + limits.maxMessageBytes() + ")");
            resetTransaction();
            return null;
        }
        transport.endRequest();
        try {
            String id = store.store(from, recipients, message.toByteArray(), secured);
            accepted++;
            reply("250 2.0.0 OK queued as " + id);
        } catch (IOException e) {
            reply("451 4.3.0 Message not stored: " + e.getClass().getSimpleName());
        }
        resetTransaction();
        return null;
    }

    private String startTls(String arg) throws IOException {
        if (tls.isEmpty()) {
            bad("502 5.5.1 STARTTLS not offered");
            return null;
        }
        if (secured) {
            bad("503 5.5.1 TLS already active");
            return null;
        }
        if (!arg.isEmpty()) {
            bad("501 5.5.4 Syntax: STARTTLS");
            return null;
        }
        out.send(transport);
        try {
            transport.startTls(tls.get());
        } catch (SocketTimeoutException e) {
            transport.recordOutcome(SessionOutcome.TIMED_OUT);
            return "tls timeout";
        } catch (IOException e) {
            transport.recordOutcome(SessionOutcome.PROTOCOL_ERROR);
            return "tls failed";
        }
        // RFC 3207 §4.2: forget everything learned before TLS.
        secured = true;
        helo = null;
        extended = false;
        resetTransaction();
        return null;
    }

    private void resetTransaction() {
        from = null;
        recipients.clear();
    }

    private void reply(String line) {
        out.ascii(line).crlf();
    }

    private void bad(String line) {
        errors++;
        reply(line);
    }

    /** Parses {@code FROM:<address> params...}; {@code null} if malformed. */
    private static Path path(String arg, String keyword) {
        if (arg.length() < keyword.length() || !arg.regionMatches(true, 0, keyword, 0, keyword.length())) {
            return null;
        }
        String rest = arg.substring(keyword.length()).stripLeading();
        if (!rest.startsWith("<")) {
            return null;
        }
        int end = rest.indexOf('>');
        if (end < 0 || end > 257) {
            return null;
        }
        String address = rest.substring(1, end);
        if (address.indexOf(' ') >= 0 || address.indexOf('<') >= 0) {
            return null;
        }
        List<String> params = new ArrayList<>();
        for (String p : rest.substring(end + 1).strip().split(" +")) {
            if (!p.isEmpty()) {
                params.add(p);
            }
        }
        return new Path(address, params);
    }

    /** A mailbox path and its parameters. */
    private static final class Path {
        final String address;
        final List<String> params;

        Path(String address, List<String> params) {
            this.address = address;
            this.params = params;
        }
    }
}
