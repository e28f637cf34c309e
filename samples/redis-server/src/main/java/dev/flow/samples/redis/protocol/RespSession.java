package dev.flow.samples.redis.protocol;

import dev.flow.LineTerminator;
import dev.flow.LineTooLongException;
import dev.flow.MemoryBudgetExceededException;
import dev.flow.MemoryHold;
import dev.flow.Transport;
import dev.flow.samples.wire.OutputBuffer;
import dev.flow.samples.redis.RedisLimits;
import dev.flow.samples.redis.Store;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * One RESP2 connection: reads commands (multibulk {@code *N} or inline), runs them against the shared
 * {@link Store} and replies. Replies to pipelined commands are batched: they are written out when the
 * input runs dry or the batch passes 64 KiB. A request that breaks the framing or a {@link
 * RedisLimits limit} gets {@code -ERR Protocol error: ...} and the session ends; a bad command (unknown
 * name, wrong arguments) gets {@code -ERR ...} and the session goes on.
 *
 * <p>Thread model: one flow (or thread) per connection; shares only the thread-safe store.
 */
public final class RespSession implements Callable<Long> {

    private static final int BATCH_BYTES = 64 * 1024;
    private static final byte[] CRLF = {'\r', '\n'};

    private final Transport transport;
    private final Store store;
    private final RedisLimits limits;
    private final OutputBuffer out = new OutputBuffer(512);

    /** Creates the session of one connection. */
    public RespSession(Transport transport, Store store, RedisLimits limits) {
        this.transport = transport;
        this.store = store;
        this.limits = limits;
    }

    /**
     * Serves commands until QUIT, end of stream, a protocol error or a command refused by the server's
     * memory budget; returns the number of commands run. The bulk strings of each command are held
     * against the server's memory budget ({@link Transport#holdReads()}) until its reply is written
     * or batched, so that what all sessions hold together is bounded, not only one command.
     */
    @Override
    public Long call() throws IOException {
        long commands = 0;
        try {
            for (;;) {
                try (MemoryHold command = transport.holdReads()) {
                    List<byte[]> args = readCommand();
                    if (args == null) {
                        break;
                    }
                    transport.endRequest();
                    if (args.isEmpty()) {
                        continue;
                    }
                    commands++;
                    if (!execute(args)) {
                        break;
                    }
                    out.sendWhenDry(transport, BATCH_BYTES);
                }
            }
        } catch (ProtocolException e) {
            error("Protocol error: " + e.getMessage());
        } catch (MemoryBudgetExceededException e) {
            // answered, then failed: the server counts it among the peers' protocol errors, message and all
            error(e.getMessage());
            out.send(transport);
            throw e;
        }
        out.send(transport);
        return commands;
    }

    /** Reads one command; an empty list for a blank inline line, {@code null} at end of stream. */
    private List<byte[]> readCommand() throws IOException, ProtocolException {
        String line = readLine();
        if (line == null) {
            return null;
        }
        if (!line.startsWith("*")) {
            return inline(line);
        }
        long n = length(line, "multibulk");
        if (n > limits.maxMultibulk()) {
            throw new ProtocolException("multibulk length " + n + " (expected: <= " + limits.maxMultibulk() + ")");
        }
        List<byte[]> args = new ArrayList<>((int) Math.min(Math.max(n, 0), 64));
        long commandBytes = 0;
        for (long i = 0; i < n; i++) {
            String header = readLine();
            if (header == null) {
                throw new EOFException("end of stream inside a multibulk request");
            }
            if (!header.startsWith("$")) {
                throw new ProtocolException("expected '$', got '" + (header.isEmpty() ? "" : header.substring(0, 1)) + "'");
            }
            long len = length(header, "bulk");
            if (len < 0 || len > limits.maxBulkBytes()) {
                throw new ProtocolException("bulk length " + len + " (expected: 0.." + limits.maxBulkBytes() + ")");
            }
            commandBytes += len;
            if (commandBytes > limits.maxCommandBytes()) {
                throw new ProtocolException("command of " + commandBytes + " bytes of bulk strings (expected: <= "
                        + "max-command-bytes " + limits.maxCommandBytes() + ")");
            }
            byte[] arg = transport.readFully((int) len);
            byte[] end = transport.readFully(2);
            if (end[0] != '\r' || end[1] != '\n') {
                throw new ProtocolException("bulk string of " + len + " bytes not followed by CRLF");
            }
            args.add(arg);
        }
        return args;
    }

    private String readLine() throws IOException, ProtocolException {
        try {
            return transport.readLine(LineTerminator.LF_OR_CRLF, limits.maxInlineBytes());
        } catch (LineTooLongException e) {
            throw new ProtocolException("too big inline request (expected: <= " + limits.maxInlineBytes() + " bytes)");
        }
    }

    private static List<byte[]> inline(String line) {
        List<byte[]> args = new ArrayList<>();
        for (String word : line.trim().split("[ \t]+")) {
            if (!word.isEmpty()) {
                args.add(word.getBytes(StandardCharsets.UTF_8));
            }
        }
        return args;
    }

    private static long length(String line, String what) throws ProtocolException {
        String digits = line.substring(1);
        if (digits.isEmpty() || digits.length() > 18 || !digits.matches("-?[0-9]+")) {
            throw new ProtocolException("invalid " + what + " length '" + (digits.length() > 32 ? digits.substring(0, 32) + "..." : digits) + "'");
        }
        return Long.parseLong(digits);
    }

    /** Runs one command and appends its reply; returns {@code false} if the session ends (QUIT). */
    private boolean execute(List<byte[]> args) {
        String name = new String(args.get(0), StandardCharsets.ISO_8859_1).toUpperCase(Locale.ROOT);
        int argc = args.size();
        switch (name) {
            case "PING":
                if (argc == 1) {
                    simple("PONG");
                } else if (argc == 2) {
                    bulk(args.get(1));
                } else {
                    arity(name);
                }
                return true;
            case "ECHO":
                if (argc == 2) {
                    bulk(args.get(1));
                } else {
                    arity(name);
                }
                return true;
            case "SET":
                set(args);
                return true;
            case "GET":
                if (argc == 2) {
                    bulk(store.get(key(args.get(1))));
                } else {
                    arity(name);
                }
                return true;
            case "DEL":
            case "EXISTS":
                if (argc < 2) {
                    arity(name);
                    return true;
                }
                long n = 0;
                for (int i = 1; i < argc; i++) {
                    String key = key(args.get(i));
                    if (name.equals("DEL") ? store.delete(key) : store.exists(key)) {
                        n++;
                    }
                }
                integer(n);
                return true;
            case "INCR":
                if (argc == 2) {
                    incr(key(args.get(1)));
                } else {
                    arity(name);
                }
                return true;
            case "MGET":
                if (argc < 2) {
                    arity(name);
                    return true;
                }
                out.ascii("*").decimal(argc - 1L).crlf();
                for (int i = 1; i < argc; i++) {
                    bulk(store.get(key(args.get(i))));
                }
                return true;
            case "QUIT":
                simple("OK");
                return false;
            default:
                StringBuilder b = new StringBuilder("unknown command '").append(printable(args.get(0)))
                        .append("', with args beginning with: ");
                for (int i = 1; i < argc && i < 4; i++) {
                    b.append('\'').append(printable(args.get(i))).append("' ");
                }
                error(b.toString());
                return true;
        }
    }

    private void set(List<byte[]> args) {
        if (args.size() != 3 && args.size() != 5) {
            if (args.size() < 3) {
                arity("SET");
            } else {
                error("syntax error");
            }
            return;
        }
        long ttlNanos = 0;
        if (args.size() == 5) {
            String unit = new String(args.get(3), StandardCharsets.ISO_8859_1).toUpperCase(Locale.ROOT);
            if (!unit.equals("EX") && !unit.equals("PX")) {
                error("syntax error");
                return;
            }
            long amount;
            try {
                amount = Long.parseLong(new String(args.get(4), StandardCharsets.ISO_8859_1));
            } catch (NumberFormatException e) {
                error("value is not an integer or out of range");
                return;
            }
            long max = unit.equals("EX") ? TimeUnit.NANOSECONDS.toSeconds(Long.MAX_VALUE / 2)
                    : TimeUnit.NANOSECONDS.toMillis(Long.MAX_VALUE / 2);
            if (amount <= 0 || amount > max) {
                error("invalid expire time in 'set' command");
                return;
            }
            ttlNanos = unit.equals("EX") ? TimeUnit.SECONDS.toNanos(amount) : TimeUnit.MILLISECONDS.toNanos(amount);
        }
        store.set(key(args.get(1)), args.get(2), ttlNanos);
        simple("OK");
    }

    private void incr(String key) {
        try {
            integer(store.incr(key));
        } catch (NumberFormatException e) {
            error("value is not an integer or out of range");
        } catch (ArithmeticException e) {
            error("increment or decrement would overflow");
        }
    }

    private static String key(byte[] k) {
        return new String(k, StandardCharsets.ISO_8859_1);
    }

    private static String printable(byte[] b) {
        String s = new String(b, 0, Math.min(b.length, 64), StandardCharsets.ISO_8859_1);
        return s.replaceAll("[^\\x20-\\x7e]", "?") + (b.length > 64 ? "..." : "");
    }

    private void arity(String command) {
        error("wrong number of arguments for '" + command.toLowerCase(Locale.ROOT) + "' command");
    }

    private void simple(String s) {
        out.ascii("+").ascii(s).crlf();
    }

    private void error(String message) {
        out.ascii("-ERR ").ascii(message.replace('\r', ' ').replace('\n', ' ')).crlf();
    }

    private void integer(long n) {
        out.ascii(":").decimal(n).crlf();
    }

    private void bulk(byte[] value) {
        if (value == null) {
            out.ascii("$-1").crlf();
        } else {
            out.ascii("$").decimal(value.length).crlf().bytes(value).bytes(CRLF);
        }
    }
}
