package dev.flow.bench.hostile;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A connect-then-reset flood from a process of its own, so that a good client measured by {@link
 * HostileLatency} does not share its JVM with the attacker:
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.flow.bench.hostile.ResetFlood PORT [CONNECTIONS] [THREADS]
 * </pre>
 *
 * <p>Opens {@code CONNECTIONS} (default 14,000, at most 1,000,000) connections to 127.0.0.1:{@code
 * PORT} from {@code THREADS} threads (default 2, at most 64), each closed at once with {@code SO_LINGER
 * 0} (a reset), stops after 60 s in any case, and prints how many it reset, how many failed and how
 * long it took. Threads: the flood runs on its own threads, which {@code main} joins.
 */
public final class ResetFlood {

    private static final long LIMIT_NANOS = TimeUnit.SECONDS.toNanos(60);

    private ResetFlood() {
    }

    /** Runs the flood; exits 2 on a bad argument. */
    public static void main(String[] args) throws InterruptedException {
        int port;
        int connections;
        int threads;
        try {
            port = intArg(args, 0, "port", -1, 1, 65_535);
            connections = intArg(args, 1, "connections", 14_000, 1, 1_000_000);
            threads = intArg(args, 2, "threads", 2, 1, 64);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println("usage: ResetFlood PORT [CONNECTIONS] [THREADS]");
            System.exit(2);
            return;
        }
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
        AtomicLong reset = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        long start = System.nanoTime();
        Thread[] flooders = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int share = connections / threads + (t < connections % threads ? 1 : 0);
            flooders[t] = new Thread(() -> {
                for (int i = 0; i < share && System.nanoTime() - start < LIMIT_NANOS; i++) {
                    try (Socket s = new Socket()) {
                        s.connect(address, 2_000);
                        s.setSoLinger(true, 0);
                        reset.incrementAndGet();
                    } catch (IOException e) {
                        failed.incrementAndGet();
                    }
                }
            }, "reset-flood-" + t);
            flooders[t].start();
        }
        for (Thread t : flooders) {
            t.join();
        }
        System.out.printf("reset flood: %d connections reset, %d failed, in %d ms%n", reset.get(), failed.get(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }

    private static int intArg(String[] args, int index, String name, int dflt, int min, int max) {
        if (args.length <= index) {
            if (dflt < 0) {
                throw new IllegalArgumentException(name + ": missing (expected: " + min + ".." + max + ")");
            }
            return dflt;
        }
        int n;
        try {
            n = Integer.parseInt(args[index]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": " + args[index] + " (expected: an integer)", e);
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(name + ": " + n + " (expected: " + min + ".." + max + ")");
        }
        return n;
    }
}
