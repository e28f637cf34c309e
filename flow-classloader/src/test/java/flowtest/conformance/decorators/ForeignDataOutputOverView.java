package flowtest.conformance.decorators;

import flowtest.support.Async;
import flowtest.support.ChunkedTransport;
import flowtest.support.Foreign;
import java.io.DataOutputStream;
import java.util.concurrent.Callable;

/**
 * Writes through a JDK {@code DataOutputStream} over a {@code BufferedOutputStream}, both made outside the scope,
 * over the output view: the typed writes, {@code write(byte[])}, {@code write(int)} and {@code flush} reach the view
 * inside the JDK's frames.
 */
public final class ForeignDataOutputOverView implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        ChunkedTransport t = ChunkedTransport.of(new byte[0], 1);
        String first = Async.later("a").get();
        DataOutputStream out = Foreign.dataOutput(t.outputStream());
        out.writeInt(0x41424344);
        out.writeUTF("h\u00e9");
        out.writeLong(-2L);
        out.writeBoolean(true);
        out.writeChars("ok");
        out.write(new byte[] {1, 2, 3, 4, 5, 6});
        out.write(9);
        int beforeFlush = t.written().length;
        out.flush();
        return first + " " + beforeFlush + " " + java.util.Arrays.toString(t.written()) + " " + out.size();
    }
}
