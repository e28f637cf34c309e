package dev.flow.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * One completion callback on a {@link CompletableFuture} shared by all timed waits on it, so that a
 * wait that times out can withdraw its wake-up: a {@code CompletableFuture} offers no way to remove a
 * dependent, and a flow looping on {@code get(timeout)} would otherwise add one per timeout. At most
 * one dependent per future is registered this way; the hub is found through a weak map, so it never
 * keeps a future alive. Thread-safe.
 */
final class CompletionHub implements BiConsumer<Object, Throwable> {

    private static final Map<CompletableFuture<?>, CompletionHub> HUBS =
            Collections.synchronizedMap(new WeakHashMap<>());

    private final List<Runnable> waiters = new ArrayList<>(2);
    private boolean fired;

    private CompletionHub() {
    }

    /** Runs {@code action} once {@code f} completes; returns the hub to {@link #remove} it from. */
    static CompletionHub register(CompletableFuture<?> f, Runnable action) {
        CompletionHub created = null;
        CompletionHub hub;
        synchronized (HUBS) {
            hub = HUBS.get(f);
            if (hub == null) {
                hub = created = new CompletionHub();
                HUBS.put(f, hub);
            }
        }
        hub.add(action);
        if (created != null) {
            f.whenComplete(created);
        }
        return hub;
    }

    private void add(Runnable action) {
        boolean now;
        synchronized (this) {
            now = fired;
            if (!now) {
                waiters.add(action);
            }
        }
        if (now) {
            action.run();
        }
    }

    /** Withdraws {@code action}. */
    synchronized void remove(Runnable action) {
        waiters.remove(action);
    }

    /** Number of waiters registered; for tests. */
    synchronized int size() {
        return waiters.size();
    }

    @Override
    public void accept(Object value, Throwable failure) {
        Runnable[] run;
        synchronized (this) {
            fired = true;
            run = waiters.toArray(new Runnable[0]);
            waiters.clear();
        }
        for (Runnable r : run) {
            r.run();
        }
    }
}
