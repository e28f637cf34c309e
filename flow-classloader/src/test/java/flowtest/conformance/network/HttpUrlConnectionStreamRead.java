package flowtest.conformance.network;

import com.sun.net.httpserver.HttpServer;
import flowtest.support.JdkChannels;
import java.io.InputStream;
import java.net.URLConnection;
import java.util.concurrent.Callable;

/**
 * A read of the body stream of an {@code http:} connection the JDK connected outside the scope: the stream
 * waits for the server inside the JDK, reported at the read.
 */
public final class HttpUrlConnectionStreamRead implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        HttpServer server = JdkChannels.http("hello");
        try {
            URLConnection c = JdkChannels.url(server).openConnection();
            try (InputStream in = JdkChannels.body(c)) {
                return "first " + (char) in.read();
            }
        } finally {
            server.stop(0);
        }
    }
}
