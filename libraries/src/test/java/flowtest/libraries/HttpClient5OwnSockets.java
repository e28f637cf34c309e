package flowtest.libraries;

import java.net.InetSocketAddress;
import javax.net.SocketFactory;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;

/**
 * {@link HttpClient5Client}'s session with HttpClient's default connection manager, which makes its plain sockets
 * itself ({@code new Socket()} in its default {@code DetachedSocketFactory}); the factory argument is ignored.
 */
public class HttpClient5OwnSockets extends HttpClient5Client {

    public HttpClient5OwnSockets(SocketFactory ignored, InetSocketAddress address, String id) {
        super(ignored, address, id);
    }

    @Override
    protected CloseableHttpClient client() {
        return HttpClients.custom().build();
    }
}
