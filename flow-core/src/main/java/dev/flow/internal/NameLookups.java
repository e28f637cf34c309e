package dev.flow.internal;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Name lookups off a flow's thread: the JDK's resolver blocks its caller, so a flow that looks a name up (loaded
 * code's {@code InetAddress.getByName}, {@code new InetSocketAddress(host, port)}, a reverse lookup, a connect by
 * name through Flow's sockets: {@link Awaits}' name lookups) waits for the JDK's own call made on one of {@value
 * #THREADS} daemon threads ({@code flow-lookup-N}, started on demand, ended after {@value #KEEP_ALIVE_SECONDS} s
 * idle) instead of holding its worker. Lookups queue when all are busy: a resolver that hangs on a name holds one
 * thread, and holds back other names' lookups only when {@value #THREADS} hang at once (platform threads each block
 * on their own; virtual threads' carriers are compensated up to 256). A pool that grew per hung lookup was tried and
 * made every lookup's hop slower (bench/RESULTS.md, v43). Each future completes with the JDK call's result or its
 * exception. Public for {@code Awaits}' copies in each loader; not copied into a loader itself: one pool per
 * process. Thread-safe.
 */
public final class NameLookups {

    static final int THREADS = 16;
    static final int KEEP_ALIVE_SECONDS = 10;

    private static final AtomicInteger THREAD_IDS = new AtomicInteger();
    private static final ThreadPoolExecutor POOL = pool();
    private static final AtomicLong DONE = new AtomicLong();

    private NameLookups() {
    }

    private static ThreadPoolExecutor pool() {
        ThreadPoolExecutor p = new ThreadPoolExecutor(THREADS, THREADS, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, "flow-lookup-" + THREAD_IDS.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        p.allowCoreThreadTimeOut(true);
        return p;
    }

    /** {@code InetAddress.getByName(host)} on a lookup thread. */
    public static CompletableFuture<InetAddress> byName(String host) {
        return submit(() -> InetAddress.getByName(host));
    }

    /** {@code InetAddress.getAllByName(host)} on a lookup thread. */
    public static CompletableFuture<InetAddress[]> allByName(String host) {
        return submit(() -> InetAddress.getAllByName(host));
    }

    /** {@code InetAddress.getLocalHost()} on a lookup thread. */
    public static CompletableFuture<InetAddress> localHost() {
        return submit(InetAddress::getLocalHost);
    }

    /** {@code address.getHostName()} on a lookup thread. */
    public static CompletableFuture<String> hostName(InetAddress address) {
        return submit(address::getHostName);
    }

    /** {@code address.getCanonicalHostName()} on a lookup thread. */
    public static CompletableFuture<String> canonicalHostName(InetAddress address) {
        return submit(address::getCanonicalHostName);
    }

    /** {@code address.getHostName()} on a lookup thread. */
    public static CompletableFuture<String> hostName(InetSocketAddress address) {
        return submit(address::getHostName);
    }

    /** Lookups made so far on the lookup threads; for tests. */
    public static long done() {
        return DONE.get();
    }

    /** A JDK call that may ask the resolver. */
    interface Lookup<T> {
        T call() throws UnknownHostException;
    }

    /** {@code lookup} on a lookup thread. */
    static <T> CompletableFuture<T> submit(Lookup<T> lookup) {
        CompletableFuture<T> f = new CompletableFuture<>();
        POOL.execute(() -> {
            T value;
            try {
                value = lookup.call();
            } catch (UnknownHostException | RuntimeException | Error e) {
                DONE.incrementAndGet(); // before the waiter can resume and read it
                f.completeExceptionally(e);
                return;
            }
            DONE.incrementAndGet();
            f.complete(value);
        });
        return f;
    }
}
