package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.MemoryBudgetExceededException;
import dev.flow.MemoryHold;
import dev.flow.TransportConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.mina.transport.vmpipe.VmPipeAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** #14 finding 1: declared-length reads count against the input budget that buffered input counts against. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class MemoryBudgetTest {

    private static final int DECLARED = 1 << 20;

    private final Pairs pairs = new Pairs();

    @AfterEach
    void release() throws Exception {
        pairs.close();
    }

    @Test
    void aDeclaredLengthReadChargesTheBudgetAsBytesArriveAndReleasesItWhenDone() throws Exception {
        InputBudget budget = new InputBudget(8 << 20);
        Pairs.Pipe a = pairs.pipe(TransportConfig.DEFAULT, budget);
        Future<byte[]> read = Conditions.whileBlocked(() -> a.transport.readFully(DECLARED));
        assertEquals(0, budget.usedBytes(), "nothing is charged before a byte arrives: " + budget);
        byte[] data = new byte[DECLARED];
        new Random(14).nextBytes(data);
        int first = 100 * 1024;
        a.peer.write(Arrays.copyOf(data, first));
        // The budget is settled just after the transport's lock is released: wait until it charges the
        // reservation alone, the bytes taken no longer counted as buffered too.
        Conditions.await("the first bytes to be taken and charged once", () -> a.transport.bufferedBytes() == 0
                && budget.reservedBytes() >= first && budget.usedBytes() == budget.reservedBytes(), budget::toString);
        long reserved = budget.reservedBytes();
        assertTrue(reserved <= 2L * first, "reserved " + reserved + " for " + first + " bytes received: " + budget);
        a.peer.write(Arrays.copyOfRange(data, first, DECLARED));
        assertArrayEquals(data, read.get(5, TimeUnit.SECONDS));
        assertEquals(0, budget.usedBytes(), "the reservation is released: " + budget);
        assertEquals(0, budget.reservedBytes(), budget.toString());
    }

    @Test
    void aDeclaredLengthReadOverTheBudgetFailsNamingTheLimitWhileOtherSessionsGoOn() throws Exception {
        InputBudget budget = new InputBudget(64 * 1024);
        Pairs.Pipe a = pairs.pipe(TransportConfig.DEFAULT, budget);
        Pairs.Pipe b = pairs.pipe(TransportConfig.DEFAULT, budget);
        Future<byte[]> read = Conditions.whileBlocked(() -> a.transport.readFully(DECLARED));
        byte[] chunk = new byte[4096];
        for (int i = 0; i < 16 && !read.isDone(); i++) {
            a.peer.write(chunk);
        }
        ExecutionException e = assertThrows(ExecutionException.class, () -> read.get(5, TimeUnit.SECONDS));
        IOException failure = assertInstanceOf(IOException.class, e.getCause());
        String m = failure.getMessage();
        assertTrue(m.startsWith("input budget exhausted: readFully(1048576) from "), m);
        assertTrue(m.contains(" of 65536 bytes in use, "), m);
        assertTrue(m.endsWith(" of them by reads and holds (expected: at most 49152 for declared lengths and holds,"
                + " three quarters of the InputBudget)"), m);
        assertEquals(0, budget.reservedBytes(), "the failed read released its reservation: " + budget);
        a.transport.close(); // what a server does when the handler fails: its buffered input goes too
        assertEquals(0, budget.usedBytes(), budget.toString());
        b.peer.write("still served\n".getBytes(StandardCharsets.US_ASCII));
        assertEquals("still served", b.transport.readLine());
        assertArrayEquals(new byte[] {1, 2, 3}, readThree(b));
    }

    @Test
    void readsUnderAHoldStayChargedUntilTheHoldClosesAndAReadPastTheBudgetFailsOnlyItsSession() throws Exception {
        InputBudget budget = new InputBudget(64 * 1024);
        Pairs.Pipe a = pairs.pipe(TransportConfig.DEFAULT, budget);
        Pairs.Pipe b = pairs.pipe(TransportConfig.DEFAULT, budget);
        byte[] kept;
        try (MemoryHold hold = a.transport.holdReads()) {
            a.peer.write(new byte[20_000]);
            kept = a.transport.readFully(20_000);
            a.peer.write(new byte[] {'\r', '\n'});
            a.transport.readFully(2);
            assertEquals(20_002, hold.bytes(), hold.toString());
            assertEquals(20_002, budget.reservedBytes(), "what the hold keeps stays charged: " + budget);
            try (MemoryHold other = b.transport.holdReads()) {
                b.peer.write(new byte[30_000]);
                MemoryBudgetExceededException e = assertThrows(MemoryBudgetExceededException.class,
                        () -> b.transport.readFully(30_000));
                assertTrue(e.getMessage().contains(" of 65536 bytes in use, ") && e.getMessage().contains("at most 49152"),
                        e.getMessage());
                assertEquals(49_152, e.limit());
                assertEquals(0, other.bytes(), "the refused read keeps nothing");
            }
            assertEquals(20_002, budget.reservedBytes(), "the other session's refusal leaves this hold: " + budget);
        }
        assertEquals(20_000, kept.length);
        assertEquals(0, budget.reservedBytes(), "closing the hold releases it: " + budget);
        try (MemoryHold hold = a.transport.holdReads()) {
            a.peer.write(new byte[5]);
            a.transport.readFully(5);
            a.transport.close(); // a server closes the transport when its handler ends, whatever way
            assertEquals(0, budget.reservedBytes(), "closing the transport releases its holds: " + budget);
            assertEquals(0, hold.bytes());
        }
        assertEquals(0, budget.reservedBytes(), budget.toString());
    }

    private static byte[] readThree(Pairs.Pipe p) throws Exception {
        p.peer.write(new byte[] {1, 2, 3});
        return p.transport.readFully(3);
    }

    @Test
    void aServerHasAnInputBudgetOfAQuarterOfTheHeapByDefault() throws Exception {
        try (FlowServer server = FlowServer.builder().threadPerSession().handler(t -> () -> null)
                .start(new VmPipeAddress(0))) {
            assertEquals(Math.max(1L << 20, Runtime.getRuntime().maxMemory() / 4), server.inputBudget().maxBytes());
            assertEquals(InputBudget.defaultMaxBytes(), server.inputBudget().maxBytes());
        }
    }
}
