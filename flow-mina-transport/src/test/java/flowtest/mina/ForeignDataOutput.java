package flowtest.mina;

import java.io.DataOutputStream;
import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * Writes an int, a UTF string, {@code chunks} arrays of 16 KiB (through {@code OutputStream.write(byte[])}), then
 * the count so far as a long, and flushes, on a {@code DataOutputStream} made outside the loaded scope (by the
 * caller): the JDK's own class, whose final writes and {@code flush} wait inside the JDK's frames. Returns its
 * {@code size()}.
 */
public class ForeignDataOutput implements Callable<Integer> {
    private final DataOutputStream out;
    private final int chunks;

    public ForeignDataOutput(DataOutputStream out, Integer chunks) {
        this.out = out;
        this.chunks = chunks;
    }

    @Override
    public Integer call() throws IOException {
        out.writeInt(7);
        out.writeUTF("flow");
        byte[] chunk = new byte[16 * 1024];
        for (int i = 0; i < chunk.length; i++) {
            chunk[i] = (byte) i;
        }
        for (int i = 0; i < chunks; i++) {
            out.write(chunk);
        }
        out.writeLong(out.size());
        out.flush();
        return out.size();
    }
}
