package dev.flow.jdk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.CharArrayWriter;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The buffers of Flow's {@code BufferedWriter} and {@code BufferedOutputStream} made without a size: 512 at first,
 * grown to 8,192 as writes need it, as the JDK's on a virtual thread; a size given, or a subclass of the stream,
 * gets the whole buffer at once. Measured as the bytes this thread allocates to make one. What reaches the sink is
 * checked against the JDK's in the loader's conformance suite ({@code WriterBattery}, "default sizes").
 */
class DefaultBufferSizesTest {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** The fewest bytes this thread allocated to make one with {@code make} in ten tries (the first loads classes). */
    private static long allocatedToMake(Supplier<Object> make) {
        long fewest = Long.MAX_VALUE;
        for (int i = 0; i < 10; i++) {
            long before = THREADS.getCurrentThreadAllocatedBytes();
            Object made = make.get();
            long bytes = THREADS.getCurrentThreadAllocatedBytes() - before;
            fewest = Math.min(fewest, bytes);
            assertTrue(made != null);
        }
        return fewest;
    }

    @Test
    void aWriterMadeWithoutASizeAllocatesAFirstBufferOf512Chars() {
        long bytes = allocatedToMake(() -> new FlowBufferedWriter(new CharArrayWriter(0)));
        assertTrue(bytes >= 1024 && bytes < 2 * 1024, "bytes allocated: " + bytes + " (expected: 512 chars and more)");
        long sized = allocatedToMake(() -> new FlowBufferedWriter(new CharArrayWriter(0), 8192));
        assertTrue(sized >= 16 * 1024, "bytes allocated with a size of 8192 chars: " + sized);
    }

    @Test
    void aStreamMadeWithoutASizeAllocatesAFirstBufferOf512BytesUnlessSubclassed() {
        class Subclass extends FlowBufferedOutputStream {
            Subclass(OutputStream out) {
                super(out);
            }
        }
        long bytes = allocatedToMake(() -> new FlowBufferedOutputStream(new ByteArrayOutputStream(0)));
        assertTrue(bytes >= 512 && bytes < 1024 + 512, "bytes allocated: " + bytes + " (expected: 512 and a little)");
        long subclassed = allocatedToMake(() -> new Subclass(new ByteArrayOutputStream(0)));
        assertTrue(subclassed >= 8192, "bytes allocated by a subclass: " + subclassed);
    }

    @Test
    void theBuffersGrowAndPassEverythingOn() throws Exception {
        CharArrayWriter chars = new CharArrayWriter();
        FlowBufferedWriter w = new FlowBufferedWriter(chars);
        w.write(new char[600]);
        assertEquals(0, chars.size(), "600 chars are buffered, as in a buffer of 8,192");
        w.write("x".repeat(9000));
        assertEquals(8192, chars.size(), "a full buffer of 8,192 passed on");
        w.flush();
        assertEquals(9600, chars.size());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        FlowBufferedOutputStream o = new FlowBufferedOutputStream(bytes);
        o.write(new byte[600]);
        assertEquals(0, bytes.size(), "600 bytes are buffered, as in a buffer of 8,192");
        o.write(new byte[8000]);
        assertEquals(600, bytes.size(), "what did not fit passed on first");
        o.flush();
        assertArrayEquals(new byte[8600], bytes.toByteArray());
    }
}
