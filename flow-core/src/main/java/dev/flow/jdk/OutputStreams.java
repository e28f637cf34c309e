package dev.flow.jdk;

import java.io.IOException;
import java.io.OutputStream;

/**
 * {@code FilterOutputStream.close()} as the JDK writes it (flush, then close the underlying stream
 * even if the flush failed, the flush's exception suppressed by the close's), for Flow's output streams
 * ({@code FlowFilterOutputStream} and the substitutes of its JDK subclasses): the JDK's calls back into a
 * suspending {@code flush()} from its own frame. Stateless.
 */
final class OutputStreams {

    private OutputStreams() {
    }

    /** Flushes {@code self}, then closes {@code out}. */
    static void close(OutputStream self, OutputStream out) throws IOException {
        Throwable flushException = null;
        try {
            self.flush();
        } catch (Throwable e) {
            flushException = e;
            throw e;
        } finally {
            if (flushException == null) {
                out.close();
            } else {
                try {
                    out.close();
                } catch (Throwable closeException) {
                    if (flushException != closeException) {
                        closeException.addSuppressed(flushException);
                    }
                    throw closeException;
                }
            }
        }
    }
}
