package flowtest.mina;

import java.io.DataInputStream;
import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * Skips three bytes, then reads one, then skips past the end, on a {@code DataInputStream} made outside the
 * loaded scope (by the caller): the JDK's own class, whose {@code skipBytes} skips inside the JDK's frames.
 */
public class ForeignDataSkip implements Callable<String> {
    private final DataInputStream in;

    public ForeignDataSkip(DataInputStream in) {
        this.in = in;
    }

    @Override
    public String call() throws IOException {
        int skipped = in.skipBytes(3);
        int next = in.readByte();
        return skipped + " " + next + " " + in.skipBytes(10);
    }
}
