package dev.flow.bench.load;

import java.util.Locale;

/**
 * Whose session code the {@code sync}, {@code virtual} and continuation modes serve for HTTP and RESP:
 * the samples' (which batch the replies to pipelined requests, the tuned path) or the plain handlers
 * {@code PlainHttp} and {@code PlainResp} (one flush per response, as handlers written elsewhere do:
 * issue #19's untuned baseline). The echo protocol has one handler, {@code LineEcho}, either way;
 * {@code netty} and {@code mina} serve their own handlers and ignore this.
 */
enum Handlers {
    /** The HTTP and RESP samples' session classes. */
    SAMPLES("samples"),
    /** {@code PlainHttp} and {@code PlainResp} of {@code dev.flow.bench.load.handlers}. */
    PLAIN("plain");

    private final String id;

    Handlers(String id) {
        this.id = id;
    }

    /** The name used on the command line. */
    String id() {
        return id;
    }

    /** Parses a name. */
    static Handlers parse(String s) {
        String k = s.trim().toLowerCase(Locale.ROOT);
        for (Handlers h : values()) {
            if (h.id.equals(k)) {
                return h;
            }
        }
        throw new IllegalArgumentException("handlers: " + s + " (expected: samples or plain)");
    }

    @Override
    public String toString() {
        return id;
    }
}
