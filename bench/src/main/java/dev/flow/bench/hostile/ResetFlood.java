package dev.flow.bench.hostile;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A connect-then-reset flood from a process of its own, so that a good client measured by {@link
 * HostileLatency} does not share its JVM with the attacker:
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.flow.bench.hostile.ResetFlood PORT [CONNECTIONS] [THREADS] [SECONDS] [RATE]
 * </pre>
 *
 * <p>Opens {@code CONNECTIONS} (default 14,000, at most 1,000,000) connections to 127.0.0.1:{@code
 * PORT} from {@code THREADS} threads (default 2, at most 64), each closed at once with {@code SO_LINGER
 * 0} (a reset), at most {@code RATE} connections a second in all (default 0: as fast as it can, at most
 * 1,000,000), and stops after {@code SECONDS} (default 60, 1 to 600) in any case. Prints {@code flooding
 * 127.0.0.1:PORT} as the threads start, then how many it reset, how many failed, how long it took and
 * the rate. Threads: the flood runs on its own threads, which {@code main} joins.
 */
public final class ResetFlood {

    private ResetFlood() {
    }

    /** Runs the flood; exits 2 on a bad argument. */
    public static void main(String[] args) throws InterruptedException {
        int port;
        int connections;
        int threads;
        int seconds;
        int rate;
        try {
            port = intArg(args, 0, "port", -1, 1, 65_535);
            connections = intArg(args, 1, "connections", 14_000, 1, 1_000_000);
            threads = intArg(args, 2, "threads", 2, 1, 64);
            seconds = intArg(args, 3, "seconds", 60, 1, 600);
            rate = intArg(args, 4, "rate", 0, 0, 1_000_000);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println("usage: ResetFlood PORT [CONNECTIONS] [THREADS] [SECONDS] [RATE]");
            System.exit(2);
            return;
        }
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
        AtomicLong reset = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        long limitNanos = TimeUnit.SECONDS.toNanos(seconds);
        // each thread paces itself at its share of the rate: one connection every `period` ns
        long period = rate == 0 ? 0 : TimeUnit.SECONDS.toNanos(threads) / rate;
        long start = System.nanoTime();
        Thread[] flooders = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int share = connections / threads + (t < connections % threads ? 1 : 0);
            flooders[t] = new Thread(() -> {
                for (int i = 0; i < share && System.nanoTime() - start < limitNanos; i++) {
                    long wait = start + i * period - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    }
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
        System.out.println("flooding " + address.getHostString() + ":" + port);
        System.out.flush();
        for (Thread t : flooders) {
            t.join();
        }
        long millis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        System.out.printf("reset flood: %d connections reset, %d failed, in %d ms (%d/s)%n", reset.get(), failed.get(),
                millis, reset.get() * 1000 / millis);
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
