package flowtest.conformance.dispatch;

import flowtest.support.Async;
import java.io.InputStream;

/** A stream of the given bytes, each awaited, then end of stream. */
public final class AwaitingInputStream extends InputStream {
    private final byte[] bytes;
    private int pos;

    public AwaitingInputStream(byte[] bytes) {
        this.bytes = bytes.clone();
    }

    @Override
    public int read() {
        if (pos == bytes.length) {
            return -1;
        }
        return Async.later(bytes[pos++] & 0xff).join();
    }
}
