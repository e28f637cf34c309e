package dev.flow.bench.soak;

import dev.flow.mina.Dispatch;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The soak's options, parsed once from {@code --key value} or {@code --key=value} arguments. Unknown
 * options and out-of-range values are errors naming the option. Immutable.
 */
public final class SoakOptions {
    /** Length of the load phase, {@code --seconds}; default 60. */
    final int seconds;
    /** Server restarts (close under load, start again) every {@code --restart-every} seconds; default 20, 0 = never. */
    final int restartEvery;
    /** Progress line every {@code --report-every} seconds; default 5. */
    final int reportEvery;
    /** Sync mode (thread per session) instead of continuation mode, {@code --sync}. */
    final boolean sync;
    /**
     * The dispatch of continuation mode: {@code ADAPTIVE}, the server's default; {@code IO_THREADS} (every flow
     * woken by its input resumed on the MINA I/O thread), {@code --io-threads}; or {@code WORKERS} (every flow
     * resumed on the workers), {@code --dispatch-workers}.
     */
    final Dispatch dispatch;
    /**
     * The server makes a session only once its client's first byte arrived ({@code
     * FlowServer.Builder.clientSpeaksFirst}), {@code --client-speaks-first}; default off.
     */
    final boolean clientSpeaksFirst;
    /**
     * The handlers are loaded lenient, {@code --lenient} (continuation mode with {@code ADAPTIVE} or {@code
     * --dispatch-workers}): each {@code ECHO} peer then also sends {@code PAUSE} halfway, which the handler
     * answers after a 1 ms sleep inside {@code synchronized}, a pinned wait; with {@code ADAPTIVE} its
     * session is usually on its I/O thread by then, which hands its loop to another thread meanwhile.
     */
    final boolean lenient;
    /** Scheduler workers, {@code --workers}; default 2. */
    final int workers;
    /** Multiplies the number of client threads of every kind, {@code --scale}; default 1. */
    final int scale;
    /** Connections each idle client opens at once, {@code --idle-batch}; default 20. */
    final int idleBatch;
    final int maxSessions = 1024;
    final long inputBudgetBytes = 16L << 20;
    final int maxLineLength = 1024;
    final Duration lineTimeout = Duration.ofSeconds(1);
    final Duration idleTimeout = Duration.ofSeconds(2);
    final Duration writeTimeout = Duration.ofSeconds(1);
    /** A request (its first byte to its answer) must arrive within this, whatever its pace. */
    final Duration requestTimeout = Duration.ofSeconds(2);
    /** Each restart and the final stop are graceful, with this grace period. */
    final Duration grace = Duration.ofSeconds(1);
    /** The length a {@code DECLARED_LENGTH} peer announces and never sends: 1 GiB. */
    final int declaredLength = 1 << 30;
    /**
     * The bytes a {@code HELD_MEMORY} peer sends in one command: four such peers together ask for more than the
     * three quarters of {@link #inputBudgetBytes} that holds may take.
     */
    final int heldBytes = 4 << 20;
    /** How long a {@code HELD_MEMORY} peer waits, its command held by the server, before it ends it, in ms. */
    final long holdMs = 300;
    /** Connections a {@code RESET_FLOOD} peer opens and resets per round. */
    final int resetBatch = 20;

    private SoakOptions(Map<String, String> v) {
        this.seconds = intOption(v, "seconds", 60, 1, 86_400);
        this.restartEvery = intOption(v, "restart-every", 20, 0, 86_400);
        this.reportEvery = intOption(v, "report-every", 5, 1, 3_600);
        this.workers = intOption(v, "workers", 2, 1, 64);
        this.scale = intOption(v, "scale", 1, 1, 20);
        this.idleBatch = intOption(v, "idle-batch", 20, 1, 200);
        this.sync = v.remove("sync") != null;
        boolean ioThreads = v.remove("io-threads") != null;
        boolean onWorkers = v.remove("dispatch-workers") != null;
        this.clientSpeaksFirst = v.remove("client-speaks-first") != null;
        this.lenient = v.remove("lenient") != null;
        if (!v.isEmpty()) {
            throw new IllegalArgumentException("options: " + v.keySet() + " (expected: seconds, restart-every, "
                    + "report-every, sync, io-threads, dispatch-workers, client-speaks-first, lenient, workers, scale,"
                    + " idle-batch)");
        }
        if (lenient && (sync || ioThreads)) {
            throw new IllegalArgumentException("--lenient with " + (sync ? "--sync" : "--io-threads")
                    + " (expected: continuation mode with the default dispatch or --dispatch-workers; --io-threads"
                    + " refuses the pinned waits it adds)");
        }
        if ((sync ? 1 : 0) + (ioThreads ? 1 : 0) + (onWorkers ? 1 : 0) > 1) {
            throw new IllegalArgumentException("--sync, --io-threads and --dispatch-workers (expected: at most one; sync"
                    + " mode has no flows)");
        }
        this.dispatch = ioThreads ? Dispatch.IO_THREADS : onWorkers ? Dispatch.WORKERS : Dispatch.ADAPTIVE;
    }

    /**
     * Parses {@code args}; {@code --sync}, {@code --io-threads}, {@code --dispatch-workers}, {@code
     * --client-speaks-first} and {@code --lenient} take no value.
     */
    public static SoakOptions parse(String... args) {
        Map<String, String> v = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("argument: " + a + " (expected: --option [value])");
            }
            int eq = a.indexOf('=');
            if (eq > 0) {
                v.put(a.substring(2, eq), a.substring(eq + 1));
            } else if (a.equals("--sync") || a.equals("--io-threads") || a.equals("--dispatch-workers")
                    || a.equals("--client-speaks-first") || a.equals("--lenient")) {
                v.put(a.substring(2), "true");
            } else if (i + 1 < args.length) {
                v.put(a.substring(2), args[++i]);
            } else {
                throw new IllegalArgumentException("option " + a + ": no value (expected: " + a + " N)");
            }
        }
        return new SoakOptions(v);
    }

    private static int intOption(Map<String, String> v, String key, int dflt, int min, int max) {
        String s = v.remove(key);
        if (s == null) {
            return dflt;
        }
        int n;
        try {
            n = Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + ": " + s + " (expected: an integer)", e);
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException("--" + key + ": " + n + " (expected: " + min + ".." + max + ")");
        }
        return n;
    }

    @Override
    public String toString() {
        return "--seconds " + seconds + " --restart-every " + restartEvery + " --report-every " + reportEvery
                + (sync ? " --sync" : " --workers " + workers + (dispatch == Dispatch.IO_THREADS ? " --io-threads"
                        : dispatch == Dispatch.WORKERS ? " --dispatch-workers" : ""))
                + (clientSpeaksFirst ? " --client-speaks-first" : "") + (lenient ? " --lenient" : "") + " --scale " + scale + " --idle-batch " + idleBatch;
    }
}
