package dev.flow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.lang.management.ManagementFactory;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** #14 finding 1: {@code Transport.readFully(int)} never allocates on the peer's word alone. */
class ReadFullyAllocationTest {

    private static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    @Test
    void readFullyAllocatesAsBytesArrive() {
        Transport t = new ArrayTransport(new byte[100], 100);
        int declared = 64 << 20;
        long before = allocatedByThisThread();
        EOFException e = assertThrows(EOFException.class, () -> t.readFully(declared));
        long allocated = allocatedByThisThread() - before;
        assertEquals("end of stream from null: expected " + (declared - 100) + " more bytes (of " + declared + ")",
                e.getMessage());
        assertTrue(allocated < 2 << 20, "allocated " + allocated + " bytes for 100 bytes received of " + declared + " declared");
    }

    @Test
    void readFullyOfNothingSentAllocatesNoArrayOfTheDeclaredLength() {
        Transport t = new ArrayTransport(new byte[0], 1);
        long before = allocatedByThisThread();
        EOFException e = assertThrows(EOFException.class, () -> t.readFully(16 << 20));
        long allocated = allocatedByThisThread() - before;
        assertTrue(e.getMessage().endsWith("expected 16777216 more bytes (of 16777216)"), e.getMessage());
        assertTrue(allocated < 2 << 20, "allocated " + allocated + " bytes with nothing received");
    }

    @Test
    void readFullyThatGrowsItsArrayReturnsExactlyTheBytesSent() throws Exception {
        byte[] data = new byte[300_001];
        new Random(14).nextBytes(data);
        for (int chunk : new int[] {1, 1000, 65_536, data.length}) {
            byte[] got = new ArrayTransport(data, chunk).readFully(data.length);
            assertArrayEquals(data, got, "chunk " + chunk);
            assertEquals(data.length, got.length);
        }
    }

    @Test
    void readFullyOfANegativeLengthIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ArrayTransport(new byte[1], 1).readFully(-1));
        assertEquals("n: -1 (expected: >= 0)", e.getMessage());
    }
}
