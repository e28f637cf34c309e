package dev.flow.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Name lookups off a flow's thread, for Flow's own sockets ({@link Awaits#newSocket(String, int)} and the factories'
 * {@code createSocket(host, port)}): the JDK's resolver blocks its caller, so a flow that connects by name waits for
 * a lookup made on one of {@value #THREADS} daemon threads ({@code flow-lookup-N}, started on demand, ended after
 * {@value #KEEP_ALIVE_SECONDS} s idle) instead of holding its worker. Lookups queue when all are busy. Public for
 * {@code Awaits}' copies in each loader; not copied into a loader itself: one pool per process. Thread-safe.
 */
public final class NameLookups {

    static final int THREADS = 4;
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

    /** Looks {@code host} up on a lookup thread: its address, or the JDK's {@link UnknownHostException}. */
    public static CompletableFuture<InetAddress> lookup(String host) {
        CompletableFuture<InetAddress> f = new CompletableFuture<>();
        POOL.execute(() -> {
            try {
                f.complete(InetAddress.getByName(host));
            } catch (UnknownHostException | RuntimeException | Error e) {
                f.completeExceptionally(e);
            } finally {
                DONE.incrementAndGet();
            }
        });
        return f;
    }

    /** Lookups made so far on the lookup threads; for tests. */
    public static long done() {
        return DONE.get();
    }
}
