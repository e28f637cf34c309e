package dev.flow.bench.load;

import java.util.Locale;

/**
 * Whose session code the {@code sync}, {@code virtual} and continuation modes serve for HTTP and RESP:
 * the samples' (which batch the replies to pipelined requests, the tuned path; loaded lenient in the
 * continuation modes, as the samples' own launcher does, or strict) or the plain handlers {@code
 * PlainHttp} and {@code PlainResp} (one flush per response, as handlers written elsewhere do: issue #19's
 * untuned baseline; strict). The echo protocol has one handler, {@code LineEcho}, either way;
 * {@code netty} and {@code mina} serve their own handlers and ignore this.
 */
enum Handlers {
    /** The samples' session classes (HTTP, RESP, SMTP), through a lenient loader in the continuation modes. */
    SAMPLES("samples"),
    /**
     * The same through a strict loader: every wait suspends or is refused, so the sessions may resume on
     * their I/O thread with the default {@code Dispatch.ADAPTIVE}.
     */
    SAMPLES_STRICT("samples-strict"),
    /** {@code PlainHttp} and {@code PlainResp} of {@code dev.flow.bench.load.handlers}, through a strict loader. */
    PLAIN("plain"),
    /**
     * The same through a lenient loader, as {@code ContinuationClassLoader.builder()} makes one by default: the
     * sessions then resume on workers with the default {@code Dispatch.ADAPTIVE}.
     */
    PLAIN_LENIENT("plain-lenient");

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
        throw new IllegalArgumentException("handlers: " + s + " (expected: samples, samples-strict, plain or plain-lenient)");
    }

    @Override
    public String toString() {
        return id;
    }
}
