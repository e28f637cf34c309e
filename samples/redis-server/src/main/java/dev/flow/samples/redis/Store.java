package dev.flow.samples.redis;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The key space shared by every session: binary keys and values with an optional expiry.
 *
 * <p>Keys are byte strings held as ISO-8859-1 {@code String}s (one char per byte). An expired key
 * reads as absent and is removed when it is next touched; every 1024th write also sweeps the expired
 * keys, so keys that are never read again do not stay. Thread-safe: a {@link ConcurrentHashMap};
 * {@link #incr} is atomic per key.
 */
public final class Store {

    private static final int SWEEP_EVERY = 1024;

    private final Map<String, Entry> map = new ConcurrentHashMap<>();
    private final AtomicLong writes = new AtomicLong();
    private final LongSupplier clock;

    /** A value and its expiry ({@code expiresAt} in the clock's nanoseconds, or {@code NO_EXPIRY}). */
    private record Entry(byte[] value, long expiresAt) {
        static final long NO_EXPIRY = Long.MIN_VALUE;

        boolean expired(long now) {
            return expiresAt != NO_EXPIRY && now - expiresAt >= 0;
        }
    }

    /** Creates an empty store on {@link System#nanoTime()}. */
    public Store() {
        this(System::nanoTime);
    }

    /** Creates an empty store on {@code clock} (nanoseconds, like {@link System#nanoTime()}). */
    public Store(LongSupplier clock) {
        this.clock = clock;
    }

    /** The value of {@code key}, or {@code null} if it is absent or expired. */
    public byte[] get(String key) {
        Entry e = live(key);
        return e == null ? null : e.value;
    }

    /** Sets {@code key}; {@code ttlNanos} &gt; 0 sets an expiry, 0 none (any previous expiry is dropped). */
    public void set(String key, byte[] value, long ttlNanos) {
        map.put(key, new Entry(value, ttlNanos > 0 ? clock.getAsLong() + ttlNanos : Entry.NO_EXPIRY));
        wrote();
    }

    /** Removes {@code key}; returns whether it was present and not expired. */
    public boolean delete(String key) {
        Entry e = map.remove(key);
        return e != null && !e.expired(clock.getAsLong());
    }

    /** Whether {@code key} is present and not expired. */
    public boolean exists(String key) {
        return live(key) != null;
    }

    /**
     * Adds one to the decimal integer at {@code key} (absent counts as 0) and returns the new value; the
     * expiry is kept.
     *
     * @throws NumberFormatException if the value is not a 64-bit decimal integer
     * @throws ArithmeticException if the increment would overflow
     */
    public long incr(String key) {
        long[] result = new long[1];
        map.compute(key, (k, e) -> {
            long now = clock.getAsLong();
            boolean live = e != null && !e.expired(now);
            long v = live ? parseLong(e.value) : 0;
            result[0] = Math.addExact(v, 1);
            return new Entry(Long.toString(result[0]).getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                    live ? e.expiresAt : Entry.NO_EXPIRY);
        });
        wrote();
        return result[0];
    }

    /** The number of keys held, expired ones not yet removed included. */
    public int size() {
        return map.size();
    }

    private Entry live(String key) {
        Entry e = map.get(key);
        if (e != null && e.expired(clock.getAsLong())) {
            map.remove(key, e);
            return null;
        }
        return e;
    }

    private void wrote() {
        if (writes.incrementAndGet() % SWEEP_EVERY == 0) {
            long now = clock.getAsLong();
            for (Iterator<Map.Entry<String, Entry>> it = map.entrySet().iterator(); it.hasNext();) {
                if (it.next().getValue().expired(now)) {
                    it.remove();
                }
            }
        }
    }

    private static long parseLong(byte[] v) {
        String s = new String(v, java.nio.charset.StandardCharsets.ISO_8859_1);
        if (s.isEmpty() || s.length() > 20 || s.startsWith("+") || (s.length() > 1 && (s.startsWith("0") || s.startsWith("-0")))) {
            throw new NumberFormatException("not a canonical integer: " + s);
        }
        return Long.parseLong(s);
    }
}
