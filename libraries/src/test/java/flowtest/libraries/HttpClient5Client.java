package flowtest.libraries;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import javax.net.SocketFactory;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.DefaultHttpClientConnectionOperator;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.config.RegistryBuilder;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.pool.PoolReusePolicy;
import org.apache.hc.core5.util.TimeValue;

/** An Apache HttpClient 5 classic client whose connections are sockets of a factory: GET, POST, keep-alive. */
public class HttpClient5Client implements Callable<String> {
    private final SocketFactory factory;
    private final InetSocketAddress address;
    private final String id;

    public HttpClient5Client(SocketFactory factory, InetSocketAddress address, String id) {
        this.factory = factory;
        this.address = address;
        this.id = id;
    }

    /** The connection manager a user builds to give HttpClient its sockets from {@code factory}. */
    static PoolingHttpClientConnectionManager connections(SocketFactory factory) {
        DefaultHttpClientConnectionOperator operator = new DefaultHttpClientConnectionOperator(
                proxy -> factory.createSocket(), null, null, RegistryBuilder.<TlsSocketStrategy>create().build());
        return new PoolingHttpClientConnectionManager(operator, PoolConcurrencyPolicy.STRICT, PoolReusePolicy.LIFO,
                TimeValue.NEG_ONE_MILLISECOND, null);
    }

    /** The client: HttpClient over the factory's sockets. */
    protected CloseableHttpClient client() {
        return HttpClients.custom().setConnectionManager(connections(factory)).build();
    }

    @Override
    public String call() throws IOException {
        String base = "http://" + address.getHostString() + ":" + address.getPort();
        StringBuilder log = new StringBuilder();
        try (CloseableHttpClient client = client()) {
            String greeting = client.execute(new HttpGet(base + "/"),
                    r -> r.getCode() + " " + EntityUtils.toString(r.getEntity()).trim());
            log.append(greeting).append(' ');
            HttpPost post = new HttpPost(base + "/echo");
            post.setEntity(new StringEntity("body of " + id, StandardCharsets.UTF_8));
            String echoed = client.execute(post,
                    r -> r.getCode() + " " + EntityUtils.toString(r.getEntity()).equals("body of " + id));
            log.append(echoed).append(' ');
            Integer slept = client.execute(new HttpGet(base + "/sleep?ms=20"), r -> r.getCode());
            Integer missing = client.execute(new HttpGet(base + "/nope"), r -> r.getCode());
            log.append(slept).append(' ').append(missing);
        }
        return log.toString();
    }
}
