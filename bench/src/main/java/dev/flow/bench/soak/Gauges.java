package dev.flow.bench.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;

/** Process gauges: open file descriptors, live threads, heap used after {@code System.gc()}. Immutable. */
final class Gauges {
    private static final Path FDS = Path.of("/proc/self/fd");

    final long fds;
    final int threads;
    final long heapBytes;

    private Gauges(long fds, int threads, long heapBytes) {
        this.fds = fds;
        this.threads = threads;
        this.heapBytes = heapBytes;
    }

    /** Collects garbage, then reads the gauges. Call from one thread at a time. */
    static Gauges take() {
        System.gc();
        Runtime rt = Runtime.getRuntime();
        return new Gauges(fds(), ManagementFactory.getThreadMXBean().getThreadCount(), rt.totalMemory() - rt.freeMemory());
    }

    /** The number of entries in {@code /proc/self/fd}, or -1 where there is no such directory. */
    static long fds() {
        if (!Files.isDirectory(FDS)) {
            return -1;
        }
        try (Stream<Path> s = Files.list(FDS)) {
            return s.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "fds=%d threads=%d heap=%.1fMB", fds, threads, heapBytes / 1e6);
    }
}
