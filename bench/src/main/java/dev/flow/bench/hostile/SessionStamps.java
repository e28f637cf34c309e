package dev.flow.bench.hostile;

import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The server-side stage times of {@link LatencyProbe}'s new connections, by the peer's address: when
 * the server made the connection's session (or, on the baseline, accepted it) and when its I/O thread
 * opened it. Written by the probe server's filter or acceptor, taken by the handler on its first line.
 * Thread-safe.
 */
public final class SessionStamps {

    private static final Map<SocketAddress, long[]> STAMPS = new ConcurrentHashMap<>();

    private SessionStamps() {
    }

    /**
     * Notes {@code peer}'s session: made at {@code createdMillis} ({@link System#currentTimeMillis()}),
     * opened at {@code openedNanos} ({@link System#nanoTime()}).
     */
    public static void put(SocketAddress peer, long createdMillis, long openedNanos) {
        STAMPS.put(peer, new long[] {createdMillis, openedNanos});
    }

    /** Takes {@code peer}'s stamps: " CREATED_MS OPENED_NS", or " 0 0" if none were put. */
    public static String take(SocketAddress peer) {
        long[] s = peer == null ? null : STAMPS.remove(peer);
        return s == null ? " 0 0" : " " + s[0] + " " + s[1];
    }

    /** Forgets every stamp (stamps of connections that never sent a line). */
    public static void clear() {
        STAMPS.clear();
    }
}
