package flowtest.conformance.network;

import com.sun.net.httpserver.HttpServer;
import flowtest.support.JdkChannels;
import java.net.HttpURLConnection;
import java.util.concurrent.Callable;

/** {@code HttpURLConnection.getResponseCode} (the connection opened, not yet connected): it waits inside the JDK, reported. */
public final class HttpUrlConnectionResponseCode implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        HttpServer server = JdkChannels.http("hello");
        try {
            HttpURLConnection c = (HttpURLConnection) JdkChannels.url(server).openConnection();
            int code = c.getResponseCode();
            c.disconnect();
            return "status " + code;
        } finally {
            server.stop(0);
        }
    }
}
