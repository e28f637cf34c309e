package flowtest.conformance.dispatch;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Callable;

/** An in-scope stream whose {@code read()} awaits, read directly through {@code InputStream.read}. */
public final class InputStreamReadDirectly implements Callable<Object> {
    @Override
    public Object call() throws IOException {
        InputStream in = new AwaitingInputStream(new byte[] {'o', 'k', -1});
        StringBuilder b = new StringBuilder();
        for (int c = in.read(); c != -1; c = in.read()) {
            b.append(c).append(' ');
        }
        return b.toString();
    }
}
