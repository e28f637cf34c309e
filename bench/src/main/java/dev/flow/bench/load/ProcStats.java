package dev.flow.bench.load;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time, thread count and RSS of a process, from Linux {@code /proc}; -1 where unavailable. */
final class ProcStats {
    /** Kernel clock ticks per second ({@code getconf CLK_TCK}); 100 on Linux x86-64. */
    static final long TICKS_PER_SECOND = 100;

    final long cpuNanos;
    final int threads;
    final long rssKb;
    final long hwmKb;

    private ProcStats(long cpuNanos, int threads, long rssKb, long hwmKb) {
        this.cpuNanos = cpuNanos;
        this.threads = threads;
        this.rssKb = rssKb;
        this.hwmKb = hwmKb;
    }

    static final ProcStats NONE = new ProcStats(-1, -1, -1, -1);

    /** Reads the stats of {@code pid}; {@link #NONE} if {@code pid <= 0} or /proc cannot be read. */
    static ProcStats of(long pid) {
        if (pid <= 0) {
            return NONE;
        }
        try {
            String[] f = statFields(pid);
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14, 15)
            int threads = -1;
            long rss = -1;
            long hwm = -1;
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("Threads:")) {
                    threads = Integer.parseInt(line.substring(8).trim());
                } else if (line.startsWith("VmRSS:")) {
                    rss = Long.parseLong(line.substring(6).replace("kB", "").trim());
                } else if (line.startsWith("VmHWM:")) {
                    hwm = Long.parseLong(line.substring(6).replace("kB", "").trim());
                }
            }
            return new ProcStats(ticks * (1_000_000_000L / TICKS_PER_SECOND), threads, rss, hwm);
        } catch (IOException | RuntimeException e) {
            return NONE;
        }
    }

    /**
     * The CPU time of {@code pid} and of all its children, live and ended: its own time and its ended children's
     * (as the kernel adds them when it reaps them), plus each live descendant's; -1 if {@code pid}'s cannot be read.
     * A child that has ended but is not reaped yet is in neither (PostgreSQL's postmaster reaps its backends as
     * they end).
     */
    static long treeCpuNanos(long pid) {
        try {
            String[] f = statFields(pid);
            // utime, stime, cutime, cstime (fields 14-17)
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
            for (ProcessHandle child : (Iterable<ProcessHandle>) ProcessHandle.of(pid).orElseThrow().descendants()::iterator) {
                try {
                    String[] c = statFields(child.pid());
                    ticks += Long.parseLong(c[11]) + Long.parseLong(c[12]);
                } catch (IOException e) {
                    // ended since it was listed: its time is in its parent's once reaped
                }
            }
            return ticks * (1_000_000_000L / TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * The CPU time so far of this process's JIT compiler threads and of its garbage collector's, in that order, by
     * thread name in {@code /proc/self/task} (HotSpot's {@code C1 CompilerThread}, {@code C2 CompilerThread}; {@code
     * GC Thread#}, {@code G1 ...}); {@code {-1, -1}} where that cannot be read. A thread that has ended is in neither.
     */
    static long[] jitAndGcCpuNanos() {
        long jit = 0;
        long gc = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException e) {
                    continue; // ended since it was listed
                }
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                String[] f = fieldsAfterName(stat);
                long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
                ThreadKind kind = ThreadKind.of(name);
                if (kind == ThreadKind.JIT) {
                    jit += ticks;
                } else if (kind == ThreadKind.GC) {
                    gc += ticks;
                }
            }
        } catch (IOException | RuntimeException e) {
            return new long[] {-1, -1};
        }
        long nanosPerTick = 1_000_000_000L / TICKS_PER_SECOND;
        return new long[] {jit * nanosPerTick, gc * nanosPerTick};
    }

    /** What a HotSpot thread does, by its name as {@code /proc} gives it (at most 15 characters). */
    enum ThreadKind {
        /** A JIT compiler thread: {@code C1 CompilerThread<n>}, {@code C2 CompilerThread<n>}. */
        JIT,
        /** A garbage collector's thread: {@code GC Thread#<n>}, G1's {@code G1 Main Marker}, {@code G1 Conc#<n>}, ... */
        GC,
        /** Any other thread. */
        OTHER;

        static ThreadKind of(String name) {
            if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                return JIT;
            }
            return name.startsWith("GC Thread") || name.startsWith("G1 ") ? GC : OTHER;
        }
    }

    /** The fields of {@code /proc/pid/stat} after the command name (in parentheses, which may hold spaces). */
    private static String[] statFields(long pid) throws IOException {
        return fieldsAfterName(Files.readString(Path.of("/proc/" + pid + "/stat")));
    }

    /** The fields of a {@code stat} file's text after the command name. */
    private static String[] fieldsAfterName(String stat) {
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    }

    /** The soft open-files limit of this process from /proc/self/limits, or -1. */
    static long openFilesLimit() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    String[] f = line.substring("Max open files".length()).trim().split("\\s+");
                    return f[0].equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(f[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through
        }
        return -1;
    }
}
