package flowtest.conformance.network;

import flowtest.support.JdkChannels;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.util.concurrent.Callable;

/**
 * URLs that read local files: {@code getClass().getResource(..).openStream()} (a {@code file:} or {@code
 * jar:file:} URL, as the class path has it), a class of the JDK ({@code jrt:}), an entry of a jar file ({@code
 * jar:file:}) and the jar file itself ({@code file:}): never reported.
 */
public final class LocalUrlsAreNotReported implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        StringBuilder out = new StringBuilder();
        URL entry = JdkChannels.jarEntry();
        URL jarFile = new URL(entry.getFile().substring(0, entry.getFile().indexOf("!/")));
        for (URL u : new URL[] {getClass().getResource("LocalUrlsAreNotReported.class"), String.class.getResource("String.class"),
                entry, jarFile}) {
            try (InputStream in = u.openStream()) {
                out.append(in.read()).append(", ");
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
