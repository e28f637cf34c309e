package dev.flow.jdk;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A {@link DataOutputStream} whose writes suspend a flow where the JDK's would block inside its own
 * frames: the {@code ContinuationClassLoader} creates one wherever loaded code creates a {@code
 * DataOutputStream}, and makes in-scope subclasses extend it. {@code DataOutputStream}'s typed
 * writes are final, so loaded code's calls of them go to {@link FlowData}, which writes here for this
 * class and makes the JDK's call for any other. The bytes, the calls made on the underlying stream,
 * {@code size()} (the JDK's {@code written} field) and {@code writeUTF}'s encoding and errors (the
 * JDK's own) are the JDK's.
 *
 * <p>Public only because loaded code names it; not an API. Thread-safe: writers are excluded from
 * each other by a lock the flow owns.
 */
public class FlowDataOutputStream extends DataOutputStream {

    private final FlowMonitor guard = new FlowMonitor();
    private final byte[] writeBuffer = new byte[8];
    private boolean closed;

    /** As {@code new DataOutputStream(out)}. */
    public FlowDataOutputStream(OutputStream out) {
        super(out);
    }

    private void incCount(int value) {
        int temp = written + value;
        if (temp < 0) {
            temp = Integer.MAX_VALUE;
        }
        written = temp;
    }

    @Override
    public void write(int b) throws IOException {
        Object me = guard.take();
        try {
            out.write(b);
            incCount(1);
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Object me = guard.take();
        try {
            out.write(b, off, len);
            incCount(len);
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void write(byte[] b) throws IOException {
        if (b == null) {
            super.write(b);
            return;
        }
        write(b, 0, b.length);
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        synchronized (guard) {
            if (closed) {
                return;
            }
            closed = true;
        }
        OutputStreams.close(this, out);
    }

    void writeByte0(int v) throws IOException {
        out.write(v);
        incCount(1);
    }

    /** The low {@code n} bytes of {@code v}, big-endian, in one write. */
    private void writeBigEndian(long v, int n) throws IOException {
        for (int i = 0; i < n; i++) {
            writeBuffer[i] = (byte) (v >>> (8 * (n - 1 - i)));
        }
        out.write(writeBuffer, 0, n);
        incCount(n);
    }

    void writeShort0(int v) throws IOException {
        writeBigEndian(v, 2);
    }

    void writeInt0(int v) throws IOException {
        writeBigEndian(v, 4);
    }

    void writeLong0(long v) throws IOException {
        writeBigEndian(v, 8);
    }

    void writeBytes0(String s) throws IOException {
        int len = s.length();
        for (int i = 0; i < len; i++) {
            out.write((byte) s.charAt(i));
        }
        incCount(len);
    }

    void writeChars0(String s) throws IOException {
        int len = s.length();
        for (int i = 0; i < len; i++) {
            char v = s.charAt(i);
            writeBuffer[0] = (byte) (v >>> 8);
            writeBuffer[1] = (byte) v;
            out.write(writeBuffer, 0, 2);
        }
        incCount(len * 2);
    }

    void writeUTF0(String s) throws IOException {
        ByteArrayOutputStream encoded = new ByteArrayOutputStream();
        new DataOutputStream(encoded).writeUTF(s);
        byte[] b = encoded.toByteArray();
        write(b, 0, b.length);
    }
}
