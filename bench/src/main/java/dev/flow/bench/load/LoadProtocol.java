package dev.flow.bench.load;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * What the load client speaks, with the check that each response is the right one: a line echo, HTTP/1.1
 * keep-alive {@code GET /}, RESP {@code PING}, RESP {@code SET}/{@code GET} pairs on a key per
 * connection (each {@code GET} must return the value just set), or SMTP messages. Requests are numbered per connection
 * ({@code seq} from 1); a response that does not match its request is a "mismatch" error of the run.
 */
public enum LoadProtocol {
    /** "id seq xxx...\n", echoed. */
    ECHO("echo"),
    /** "GET /?c=id&amp;s=seq HTTP/1.1", answered 200 with a Content-Length body (the HTTP sample, wrk's request). */
    HTTP("http"),
    /** RESP "PING", answered "+PONG". */
    RESP_PING("resp-ping"),
    /** RESP "SET k:id v:seq..." (odd seq), answered "+OK", then "GET k:id" (even seq), answered the value just set. */
    RESP_SETGET("resp-setget"),
    /**
     * One SMTP message per request, the whole transaction in one write: {@code MAIL FROM}, {@code RCPT TO},
     * {@code DATA}, a body of {@code payload} bytes and the final dot ({@code EHLO} first on a connection's
     * first request), answered 250, 250, 354, 250. The body follows {@code DATA} without waiting for the
     * {@code 354} (RFC 2920 wants the client to wait; the server reads the body from its buffer after the
     * {@code 354} either way, so it does the same work, minus one round trip). The server's {@code 220}
     * greeting, which may come before the first request, is checked and skipped.
     */
    SMTP("smtp");

    /** The response is complete and right. */
    static final int COMPLETE = -1;
    /** The response goes on with another line. */
    static final int MORE = -2;
    /** The response is not the one expected. */
    static final int MISMATCH = -3;

    private final String id;

    LoadProtocol(String id) {
        this.id = id;
    }

    /** The name used on the command line. */
    public String id() {
        return id;
    }

    /** Parses a protocol name. */
    public static LoadProtocol parse(String s) {
        String k = s.trim().toLowerCase(Locale.ROOT);
        for (LoadProtocol p : values()) {
            if (p.id.equals(k)) {
                return p;
            }
        }
        throw new IllegalArgumentException("protocol: " + s + " (expected one of: echo, http, resp-ping, resp-setget)");
    }

    /** The {@link LoadServer} protocol that answers this one: {@code echo}, {@code http}, {@code redis} or {@code smtp}. */
    String server() {
        return this == ECHO ? "echo" : this == HTTP ? "http" : this == SMTP ? "smtp" : "redis";
    }

    /** The longest request for {@code payload}, in bytes. */
    int maxRequestBytes(int payload) {
        return payload + (this == SMTP ? 240 : 160);
    }

    /** Whether a line that arrives with no request outstanding is the server's greeting (SMTP's {@code 220}). */
    boolean greeting(byte[] b, int len) {
        return this == SMTP && startsWith(b, len, "220 ");
    }

    /** Writes request {@code seq} of connection {@code id} into {@code dst} at {@code p}; returns the new position. */
    int request(byte[] dst, int p, int id, long seq, int payload) {
        switch (this) {
            case ECHO: {
                int start = p;
                p = putNum(dst, p, id);
                dst[p++] = ' ';
                p = putNum(dst, p, seq);
                dst[p++] = ' ';
                while (p - start < payload) {
                    dst[p++] = 'x';
                }
                dst[p++] = '\n';
                return p;
            }
            case HTTP:
                p = put(dst, p, "GET /?c=");
                p = putNum(dst, p, id);
                p = put(dst, p, "&s=");
                p = putNum(dst, p, seq);
                return put(dst, p, " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            case RESP_PING:
                return put(dst, p, "*1\r\n$4\r\nPING\r\n");
            case SMTP: {
                if (seq == 1) {
                    p = put(dst, p, "EHLO load\r\n");
                }
                p = put(dst, p, "MAIL FROM:<c");
                p = putNum(dst, p, id);
                p = put(dst, p, "@load.test>\r\nRCPT TO:<sink@load.test>\r\nDATA\r\nSubject: ");
                p = putNum(dst, p, seq);
                int start = p;
                p = put(dst, p, "\r\n\r\n");
                while (p - start < payload) {
                    dst[p++] = 'x';
                }
                return put(dst, p, "\r\n.\r\n");
            }
            default:
                if (seq % 2 == 1) {
                    p = put(dst, p, "*3\r\n$3\r\nSET\r\n");
                    p = bulk(dst, p, key(id));
                    p = put(dst, p, "$");
                    p = putNum(dst, p, valueLength(id, seq, payload));
                    p = put(dst, p, "\r\n");
                    p = value(dst, p, id, seq, payload);
                    return put(dst, p, "\r\n");
                }
                p = put(dst, p, "*2\r\n$3\r\nGET\r\n");
                return bulk(dst, p, key(id));
        }
    }

    /** A new response checker for one connection; not thread-safe. */
    Parser parser(int payload) {
        return new Parser(this, payload);
    }

    /** Checks the responses of one connection, in order. */
    static final class Parser {
        private final LoadProtocol protocol;
        private final int payload;
        private final byte[] expected;
        private int state;
        private long contentLength;
        /** SMTP: the greeting has been seen. */
        private boolean greeted;

        Parser(LoadProtocol protocol, int payload) {
            this.protocol = protocol;
            this.payload = payload;
            this.expected = new byte[protocol.maxRequestBytes(payload)];
        }

        /**
         * One line of the response to request {@code seq} ({@code \r\n} or {@code \n} removed): returns
         * {@link #COMPLETE}, {@link #MORE}, {@link #MISMATCH} or a number of body bytes to read next.
         */
        int line(byte[] b, int len, int id, long seq) {
            switch (protocol) {
                case ECHO: {
                    int n = protocol.request(expected, 0, id, seq, payload) - 1;
                    return n == len && Arrays.equals(expected, 0, n, b, 0, len) ? COMPLETE : MISMATCH;
                }
                case HTTP:
                    if (state == 0) {
                        state = 1;
                        contentLength = -1;
                        return startsWith(b, len, "HTTP/1.1 200 ") ? MORE : MISMATCH;
                    }
                    if (len == 0) {
                        state = 0;
                        return contentLength < 0 ? MISMATCH : contentLength == 0 ? COMPLETE : (int) contentLength;
                    }
                    if (startsWithIgnoreCase(b, len, "content-length:")) {
                        String v = new String(b, 15, len - 15, StandardCharsets.ISO_8859_1).trim();
                        contentLength = v.matches("[0-9]{1,9}") ? Long.parseLong(v) : -1;
                    }
                    return MORE;
                case RESP_PING:
                    return is(b, len, "+PONG") ? COMPLETE : MISMATCH;
                case SMTP:
                    return smtp(b, len, seq);
                default:
                    if (seq % 2 == 1) {
                        return is(b, len, "+OK") ? COMPLETE : MISMATCH;
                    }
                    int n = valueLength(id, seq - 1, payload);
                    return is(b, len, "$" + n) ? n + 2 : MISMATCH;
            }
        }

        /** SMTP: the final reply lines of a message: (EHLO 250,) MAIL 250, RCPT 250, DATA 354, the dot 250. */
        private int smtp(byte[] b, int len, long seq) {
            if (!greeted && startsWith(b, len, "220 ")) {
                greeted = true;
                return MORE;
            }
            if (len >= 4 && b[3] == '-') {
                return MORE;
            }
            int finals = seq == 1 ? 5 : 4;
            int fromEnd = finals - state;
            String code = fromEnd == 2 ? "354 " : "250 ";
            if (!startsWith(b, len, code)) {
                return MISMATCH;
            }
            if (++state < finals) {
                return MORE;
            }
            state = 0;
            return COMPLETE;
        }

        /** The body bytes asked for by {@link #line}: {@link #COMPLETE} or {@link #MISMATCH}. */
        int body(byte[] b, int len, int id, long seq) {
            if (protocol != RESP_SETGET) {
                return COMPLETE;
            }
            int n = value(expected, 0, id, seq - 1, payload);
            return len == n + 2 && Arrays.equals(expected, 0, n, b, 0, n) && b[n] == '\r' && b[n + 1] == '\n'
                    ? COMPLETE : MISMATCH;
        }
    }

    private static String key(int id) {
        return "k:" + id;
    }

    /** "v:id:seq:xxx..." padded to the payload length, into {@code dst} at {@code p}; returns the new position. */
    private static int value(byte[] dst, int p, int id, long seq, int payload) {
        int start = p;
        p = put(dst, p, "v:");
        p = putNum(dst, p, id);
        dst[p++] = ':';
        p = putNum(dst, p, seq);
        dst[p++] = ':';
        while (p - start < payload) {
            dst[p++] = 'x';
        }
        return p;
    }

    private static int valueLength(int id, long seq, int payload) {
        return Math.max(payload, 4 + Long.toString(id).length() + Long.toString(seq).length());
    }

    private static int bulk(byte[] dst, int p, String s) {
        p = put(dst, p, "$");
        p = putNum(dst, p, s.length());
        p = put(dst, p, "\r\n");
        p = put(dst, p, s);
        return put(dst, p, "\r\n");
    }

    private static int put(byte[] dst, int p, String s) {
        for (int i = 0; i < s.length(); i++) {
            dst[p++] = (byte) s.charAt(i);
        }
        return p;
    }

    static int putNum(byte[] b, int p, long v) {
        if (v == 0) {
            b[p] = '0';
            return p + 1;
        }
        int start = p;
        while (v > 0) {
            b[p++] = (byte) ('0' + v % 10);
            v /= 10;
        }
        for (int i = start, j = p - 1; i < j; i++, j--) {
            byte t = b[i];
            b[i] = b[j];
            b[j] = t;
        }
        return p;
    }

    private static boolean is(byte[] b, int len, String s) {
        return len == s.length() && startsWith(b, len, s);
    }

    private static boolean startsWith(byte[] b, int len, String s) {
        if (len < s.length()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (b[i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean startsWithIgnoreCase(byte[] b, int len, String s) {
        if (len < s.length()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (Character.toLowerCase((char) b[i]) != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
