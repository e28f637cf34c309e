package flowtest.conformance.network;

import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.util.concurrent.Callable;

/**
 * URLs that read local files: {@code getClass().getResource(..).openStream()} ({@code file:}), a class of
 * the JDK ({@code jrt:}) and of a jar on the class path ({@code jar:file:}): never reported.
 */
public final class LocalUrlsAreNotReported implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        StringBuilder out = new StringBuilder();
        for (URL u : new URL[] {getClass().getResource("LocalUrlsAreNotReported.class"), String.class.getResource("String.class"),
                org.junit.jupiter.api.Test.class.getResource("Test.class")}) {
            try (InputStream in = u.openStream()) {
                out.append(u.getProtocol()).append(' ').append(in.read()).append(", ");
            }
            URLConnection c = u.openConnection();
            c.connect();
            try (InputStream in = c.getInputStream()) {
                out.append(in.read() >= 0).append(", ");
            }
        }
        return out.toString();
    }
}
