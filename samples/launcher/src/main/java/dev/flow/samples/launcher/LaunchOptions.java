package dev.flow.samples.launcher;

import dev.flow.SuspendPolicy;
import dev.flow.mina.Dispatch;
import dev.flow.mina.FlowServer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The parsed and validated command line of a sample server:
 * {@code --port P --mode sync|continuation [--workers N] [--policy immediately|after:1ms|adaptive]
 * [--dispatch adaptive|workers|io-threads] [--strict true|false]} plus the protocol's own settings. Immutable.
 *
 * <p>Defaults: port 0 (a free one), mode continuation, 2 workers, policy {@code immediately}, dispatch
 * {@code adaptive} (the server's default), strict loading through the loader route (every wait suspends or
 * is refused, so that {@code adaptive} may resume the sessions on their I/O thread; the samples pin
 * nowhere), at most 65,536 sessions at once (more are closed at once), a grace period of 10 s on SIGTERM
 * ({@code --grace}). Sync mode runs one thread per session and takes none of {@code --workers}, {@code
 * --policy}, {@code --dispatch}, {@code --strict}.
 */
public final class LaunchOptions {

    /** How the session handler runs. */
    public enum Mode {
        /** Loaded normally: each session runs on a thread of its own and blocks it while it waits. */
        SYNC,
        /** Loaded through the {@code ContinuationClassLoader}: sessions suspend while they wait. */
        CONTINUATION
    }

    /** The most worker threads, the scheduler's limit. */
    static final int MAX_WORKERS = 1024;
    /** The default of {@code --max-sessions}: the server's, from the process's descriptor limit. */
    static final int DEFAULT_MAX_SESSIONS = FlowServer.defaultMaxSessions();
    /** The default of {@code --grace}. */
    static final Duration DEFAULT_GRACE = Duration.ofSeconds(10);
    /** The default of {@code --stop-limit}: how long a stop may overrun its grace period before the JVM is halted. */
    static final Duration DEFAULT_STOP_LIMIT = Duration.ofSeconds(60);

    private final int port;
    private final Mode mode;
    private final int workers;
    private final SuspendPolicy policy;
    private final Dispatch dispatch;
    private final boolean strict;
    private final int maxSessions;
    private final int maxStartingSessions;
    private final Map<String, String> settings;
    private final boolean help;
    private final Duration grace;
    private final Duration stopLimit;
    /** {@code --client-speaks-first}, or {@code null}: the protocol's. */
    private final Boolean clientSpeaksFirst;

    private LaunchOptions(int port, Mode mode, int workers, SuspendPolicy policy, Dispatch dispatch, boolean strict,
            int maxSessions, int maxStartingSessions, Map<String, String> settings, boolean help, Duration grace,
            Duration stopLimit, Boolean clientSpeaksFirst) {
        this.strict = strict;
        this.stopLimit = stopLimit;
        this.clientSpeaksFirst = clientSpeaksFirst;
        this.maxStartingSessions = maxStartingSessions;
        this.grace = grace;
        this.dispatch = dispatch;
        this.port = port;
        this.mode = mode;
        this.workers = workers;
        this.policy = policy;
        this.maxSessions = maxSessions;
        this.settings = Map.copyOf(settings);
        this.help = help;
    }

    /**
     * Parses {@code args}; options take one value each ({@code --port 8080} or {@code --port=8080}).
     *
     * @throws IllegalArgumentException naming the option, the value and the expectation
     */
    public static LaunchOptions parse(List<SampleProtocol.Setting> protocolSettings, String... args) {
        int port = 0;
        Mode mode = Mode.CONTINUATION;
        Integer workers = null;
        SuspendPolicy policy = null;
        Dispatch dispatch = null;
        Boolean strict = null;
        int maxSessions = DEFAULT_MAX_SESSIONS;
        int maxStartingSessions = FlowServer.DEFAULT_MAX_STARTING_SESSIONS;
        Map<String, String> settings = new LinkedHashMap<>();
        boolean help = false;
        Duration grace = DEFAULT_GRACE;
        Duration stopLimit = DEFAULT_STOP_LIMIT;
        Boolean clientSpeaksFirst = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                help = true;
                continue;
            }
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("argument: " + a + " (expected: an option such as --port; see --help)");
            }
            String name = a.substring(2);
            String value;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new IllegalArgumentException("--" + name + ": no value (expected: --" + name + " VALUE)");
            }
            switch (name) {
                case "port":
                    port = number("--port", value, 0, 65535);
                    break;
                case "mode":
                    mode = parseMode(value);
                    break;
                case "workers":
                    workers = number("--workers", value, 1, MAX_WORKERS);
                    break;
                case "dispatch":
                    dispatch = parseDispatch(value);
                    break;
                case "policy":
                    policy = parsePolicy(value);
                    break;
                case "strict":
                    strict = parseBoolean("--strict", value);
                    break;
                case "max-sessions":
                    maxSessions = number("--max-sessions", value, 1, Integer.MAX_VALUE);
                    break;
                case "max-starting-sessions":
                    maxStartingSessions = number("--max-starting-sessions", value, 1, Integer.MAX_VALUE);
                    break;
                case "grace":
                    grace = parseGrace(value);
                    break;
                case "client-speaks-first":
                    clientSpeaksFirst = parseBoolean("--client-speaks-first", value);
                    break;
                case "stop-limit":
                    stopLimit = parseDuration("--stop-limit", value);
                    if (stopLimit.isZero()) {
                        throw new IllegalArgumentException("--stop-limit: " + value + " (expected: <n>s or <n>ms, 1ms..1h)");
                    }
                    break;
                default:
                    String key = name;
                    if (protocolSettings.stream().noneMatch(s -> s.name().equals(key))) {
                        throw new IllegalArgumentException("unknown option: --" + name + " (see --help)");
                    }
                    settings.put(name, value);
            }
        }
        if (mode == Mode.SYNC && (policy != null || workers != null || dispatch != null || strict != null)) {
            throw new IllegalArgumentException((policy != null ? "--policy: " + policy
                    : workers != null ? "--workers: " + workers
                    : dispatch != null ? "--dispatch: " + dispatchName(dispatch) : "--strict: " + strict)
                    + " (expected: only with --mode continuation; sync mode runs one thread per session, see --max-sessions)");
        }
        return new LaunchOptions(port, mode, workers != null ? workers : 2,
                policy != null ? policy : SuspendPolicy.immediately(), dispatch != null ? dispatch : Dispatch.ADAPTIVE,
                strict == null || strict, maxSessions, maxStartingSessions, settings, help, grace, stopLimit, clientSpeaksFirst);
    }

    /** Parses {@code <n>s} or {@code <n>ms}, at most an hour; {@code 0} stops at once. */
    static Duration parseGrace(String v) {
        return parseDuration("--grace", v);
    }

    /** Parses {@code <n>s} or {@code <n>ms} (or {@code 0}), at most an hour, for {@code option}. */
    private static Duration parseDuration(String option, String v) {
        String s = v.toLowerCase(Locale.ROOT);
        String digits = s.endsWith("ms") ? s.substring(0, s.length() - 2) : s.endsWith("s") ? s.substring(0, s.length() - 1) : s;
        if (!digits.isEmpty() && digits.length() <= 9 && digits.chars().allMatch(Character::isDigit)
                && (s.endsWith("s") || Long.parseLong(digits) == 0)) {
            Duration d = s.endsWith("ms") ? Duration.ofMillis(Long.parseLong(digits)) : Duration.ofSeconds(Long.parseLong(digits));
            if (d.compareTo(Duration.ofHours(1)) <= 0) {
                return d;
            }
        }
        throw new IllegalArgumentException(option + ": " + v + " (expected: <n>s or <n>ms, 0..1h)");
    }

    private static boolean parseBoolean(String option, String v) {
        if (!v.equals("true") && !v.equals("false")) {
            throw new IllegalArgumentException(option + ": " + v + " (expected: true or false)");
        }
        return Boolean.parseBoolean(v);
    }

    private static Mode parseMode(String v) {
        switch (v) {
            case "sync":
                return Mode.SYNC;
            case "continuation":
                return Mode.CONTINUATION;
            default:
                throw new IllegalArgumentException("--mode: " + v + " (expected: sync or continuation)");
        }
    }

    private static Dispatch parseDispatch(String v) {
        switch (v) {
            case "adaptive":
                return Dispatch.ADAPTIVE;
            case "workers":
                return Dispatch.WORKERS;
            case "io-threads":
                return Dispatch.IO_THREADS;
            default:
                throw new IllegalArgumentException("--dispatch: " + v + " (expected: adaptive, workers or io-threads)");
        }
    }

    private static String dispatchName(Dispatch d) {
        return d.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Parses {@code immediately}, {@code adaptive} or {@code after:<n>ms} / {@code after:<n>us}. */
    static SuspendPolicy parsePolicy(String v) {
        String expected = " (expected: immediately, adaptive or after:<n>ms / after:<n>us)";
        if (v.equals("immediately")) {
            return SuspendPolicy.immediately();
        }
        if (v.equals("adaptive")) {
            return SuspendPolicy.adaptive();
        }
        String s = v.toLowerCase(Locale.ROOT);
        if (s.startsWith("after:") && (s.endsWith("ms") || s.endsWith("us"))) {
            String digits = s.substring(6, s.length() - 2);
            if (!digits.isEmpty() && digits.chars().allMatch(Character::isDigit) && digits.length() <= 9) {
                long n = Long.parseLong(digits);
                Duration d = s.endsWith("ms") ? Duration.ofMillis(n) : Duration.ofNanos(n * 1000);
                if (!d.isZero()) {
                    return SuspendPolicy.after(d);
                }
            }
        }
        throw new IllegalArgumentException("--policy: " + v + expected);
    }

    static int number(String option, String v, int min, int max) {
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": " + v + " (expected: an integer " + min + ".." + max + ")");
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(option + ": " + v + " (expected: " + min + ".." + max + ")");
        }
        return (int) n;
    }

    /** The usage text: the common options, then the protocol's settings with their defaults. */
    public static String usage(SampleProtocol protocol) {
        StringBuilder b = new StringBuilder();
        b.append("usage: java -jar ").append(protocol.name()).append(".jar --port P --mode sync|continuation")
                .append(" [--workers N] [--policy immediately|after:1ms|adaptive] [--dispatch adaptive|workers|io-threads]")
                .append(" [--strict true|false] [settings]\n")
                .append("  --port P          TCP port on 127.0.0.1; 0 picks a free one (default 0)\n")
                .append("  --mode M          sync: loaded normally, one thread per session;\n")
                .append("                    continuation: loaded through the ContinuationClassLoader (default),\n")
                .append("                    or as loaded if the agent or the Maven plugin instrumented it\n")
                .append("  --workers N       scheduler threads in continuation mode, 1..").append(MAX_WORKERS)
                .append(" (default 2)\n")
                .append("  --policy P        suspend policy in continuation mode: immediately (default), adaptive,\n")
                .append("                    after:<n>ms or after:<n>us (wait that long before suspending)\n")
                .append("  --dispatch D      continuation mode: where a flow woken by its input resumes: adaptive (default)\n")
                .append("                    on the I/O thread that read it while it is strict and its runs are short,\n")
                .append("                    else on a worker; workers always on the scheduler's threads; io-threads\n")
                .append("                    always on the I/O thread\n")
                .append("  --strict B        continuation mode, loader route: true (default) loads the handler strict, every\n")
                .append("                    wait suspends or is refused; false blocks a worker where a wait cannot suspend\n")
                .append("  --max-sessions N  sessions served at once; more are closed at once (default, from ulimit -n: ")
                .append(DEFAULT_MAX_SESSIONS).append(")\n")
                .append("  --max-starting-sessions N  accepted sessions waiting to start at once; while that many wait,\n")
                .append("                    no more are accepted (default ").append(FlowServer.DEFAULT_MAX_STARTING_SESSIONS)
                .append(")\n")
                .append("  --client-speaks-first B  true: a connection gets a session once its first byte arrives,\n")
                .append("                    closed if it sends nothing within 30s (or the idle timeout); false: at once (default: the\n")
                .append("                    protocol's, ").append(protocol.clientSpeaksFirst()).append(")\n")
                .append("  --grace T         on SIGTERM: stop accepting, let requests in flight finish for up to T\n")
                .append("                    (<n>s or <n>ms; default ").append(DEFAULT_GRACE.toSeconds())
                .append("s), then close the rest; exit 0 if all finished, else 143\n")
                .append("  --stop-limit T    halt the JVM (exit 1) if a stop takes T longer than its grace period\n")
                .append("                    (<n>s or <n>ms; default ").append(DEFAULT_STOP_LIMIT.toSeconds()).append("s)\n")
                .append("  --help            this text\n")
                .append("settings:\n");
        for (SampleProtocol.Setting s : protocol.settings()) {
            b.append(String.format(Locale.ROOT, "  --%-22s %s (default %s)%n", s.name() + " N", s.description(),
                    s.defaultValue()));
        }
        return b.toString();
    }

    /** The port to bind on 127.0.0.1; 0 picks a free one. */
    public int port() {
        return port;
    }

    /** Sync or continuation. */
    public Mode mode() {
        return mode;
    }

    /**
     * Whether the loader route loads the handler strict (continuation mode; the agent and build-time routes
     * instrument the class before, strict or not as configured there).
     */
    public boolean strict() {
        return strict;
    }

    /** The number of scheduler worker threads (continuation mode). */
    public int workers() {
        return workers;
    }

    /** The most sessions served at once; more are closed at once. */
    public int maxSessions() {
        return maxSessions;
    }

    /** The most accepted sessions waiting to start at once; while that many wait, no more are accepted. */
    public int maxStartingSessions() {
        return maxStartingSessions;
    }

    /** Where flows woken by their input resume (continuation mode). */
    public Dispatch dispatch() {
        return dispatch;
    }

    /** The suspend policy (continuation mode). */
    public SuspendPolicy policy() {
        return policy;
    }

    /** The protocol settings given, by name without {@code --}. */
    public Map<String, String> settings() {
        return settings;
    }

    /** How long requests in flight may take to finish when the server stops on SIGTERM ({@code --grace}). */
    public Duration grace() {
        return grace;
    }

    /** How long a stop on SIGTERM may take beyond {@link #grace()} before the JVM is halted ({@code --stop-limit}). */
    public Duration stopLimit() {
        return stopLimit;
    }

    /**
     * {@code --client-speaks-first}: whether connections wait for their first byte before their session
     * is made ({@code FlowServer.Builder.clientSpeaksFirst}); empty for the protocol's {@link
     * SampleProtocol#clientSpeaksFirst()}.
     */
    public Optional<Boolean> clientSpeaksFirst() {
        return Optional.ofNullable(clientSpeaksFirst);
    }

    /** Whether {@code --help} was given. */
    public boolean help() {
        return help;
    }

    @Override
    public String toString() {
        return "mode=" + mode.name().toLowerCase(Locale.ROOT)
                + (mode == Mode.CONTINUATION ? " workers=" + workers + " policy=" + policy
                        + " dispatch=" + dispatchName(dispatch) : " (thread per session)")
                + " maxSessions=" + maxSessions + " maxStartingSessions=" + maxStartingSessions + " grace=" + grace.toMillis()
                + "ms stopLimit=" + stopLimit.toMillis() + "ms"
                + (clientSpeaksFirst == null ? "" : " clientSpeaksFirst=" + clientSpeaksFirst) + (settings.isEmpty() ? "" : " " + settings);
    }
}
