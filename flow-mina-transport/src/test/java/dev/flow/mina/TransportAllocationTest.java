package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.TransportConfig;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.apache.mina.core.session.DummySession;
import org.junit.jupiter.api.Test;

/**
 * What a session's transport costs before its first read: a connect-then-reset flood creates one per
 * connection, most of which never read a byte. Counts the bytes the creating thread allocates
 * ({@code com.sun.management.ThreadMXBean}) for many transports, not time.
 */
class TransportAllocationTest {

    private static final int TRANSPORTS = 2_000;
    /**
     * The most bytes one transport may allocate when made: its own objects and the session attribute
     * (about 470 on JDK 17 and 25). It was 1,568 with an input array, a charset encoder, the separator's
     * bytes and a set of failed writes made up front.
     */
    private static final long MOST_BYTES = 640;

    @Test
    void aTransportAllocatesLittleBeforeItsFirstRead() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        TransportConfig config = TransportConfig.DEFAULT;
        InputBudget budget = new InputBudget(1 << 20);
        List<DummySession> sessions = new ArrayList<>();
        for (int i = 0; i < 2 * TRANSPORTS; i++) {
            sessions.add(new DummySession());
        }
        List<MinaTransport> kept = new ArrayList<>(2 * TRANSPORTS);
        // the first half warms up (class loading, the JIT), the second is counted
        for (int i = 0; i < TRANSPORTS; i++) {
            kept.add(MinaTransport.attach(sessions.get(i), config, budget));
        }
        long tid = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(tid);
        for (int i = TRANSPORTS; i < 2 * TRANSPORTS; i++) {
            kept.add(MinaTransport.attach(sessions.get(i), config, budget));
        }
        long perTransport = (threads.getThreadAllocatedBytes(tid) - before) / TRANSPORTS;
        assertTrue(perTransport <= MOST_BYTES, "bytes allocated per transport: " + perTransport + " (expected: <= "
                + MOST_BYTES + ")");
    }
}
