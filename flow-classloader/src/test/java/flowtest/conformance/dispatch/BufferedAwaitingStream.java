package flowtest.conformance.dispatch;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Callable;

/** An in-scope stream whose {@code read()} awaits, wrapped in a JDK {@code BufferedInputStream}. */
public final class BufferedAwaitingStream implements Callable<Object> {
    @Override
    public Object call() throws IOException {
        try (InputStream in = new BufferedInputStream(new AwaitingInputStream(new byte[] {'h', 'i'}))) {
            return in.read() + " " + in.read() + " " + in.read();
        }
    }
}
