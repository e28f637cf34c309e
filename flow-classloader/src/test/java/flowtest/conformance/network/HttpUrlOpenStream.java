package flowtest.conformance.network;

import com.sun.net.httpserver.HttpServer;
import flowtest.support.JdkChannels;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/** {@code URL.openStream} of an {@code http:} URL: it connects and waits for the response inside the JDK, reported. */
public final class HttpUrlOpenStream implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        HttpServer server = JdkChannels.http("hello");
        try (InputStream in = JdkChannels.url(server).openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } finally {
            server.stop(0);
        }
    }
}
