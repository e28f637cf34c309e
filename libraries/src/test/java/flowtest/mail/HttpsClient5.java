package flowtest.mail;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import javax.net.SocketFactory;
import javax.net.ssl.SSLContext;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.DefaultHttpClientConnectionOperator;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.config.RegistryBuilder;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.pool.PoolReusePolicy;
import org.apache.hc.core5.util.TimeValue;

/**
 * Apache HttpClient 5 classic over HTTPS, its plain sockets from {@code factory} and its TLS its own ({@code
 * DefaultClientTlsStrategy}: {@code sslContext.getSocketFactory().createSocket(socket, host, port, true)}, then
 * {@code setSSLParameters}, {@code startHandshake()}, {@code getSession()}). With {@code builtinHostCheck} the
 * strategy asks the TLS engine to check the host name ({@code SSLParameters} with the {@code HTTPS} endpoint
 * identification); without it, no host check. Returns what it got, or the exception's class and message.
 */
public class HttpsClient5 implements Callable<String> {
    private final SocketFactory factory;
    private final SSLContext tls;
    private final InetSocketAddress address;
    private final boolean builtinHostCheck;
    private final String id;

    public HttpsClient5(SocketFactory factory, SSLContext tls, InetSocketAddress address, Boolean builtinHostCheck,
                        String id) {
        this.factory = factory;
        this.tls = tls;
        this.address = address;
        this.builtinHostCheck = builtinHostCheck;
        this.id = id;
    }

    @Override
    public String call() throws IOException {
        TlsSocketStrategy strategy = builtinHostCheck
                ? new DefaultClientTlsStrategy(tls, HostnameVerificationPolicy.BUILTIN, NoopHostnameVerifier.INSTANCE)
                : new DefaultClientTlsStrategy(tls, HostnameVerificationPolicy.CLIENT, NoopHostnameVerifier.INSTANCE);
        DefaultHttpClientConnectionOperator operator = new DefaultHttpClientConnectionOperator(
                proxy -> factory.createSocket(), null, null,
                RegistryBuilder.<TlsSocketStrategy>create().register("https", strategy).build());
        PoolingHttpClientConnectionManager connections = new PoolingHttpClientConnectionManager(operator,
                PoolConcurrencyPolicy.STRICT, PoolReusePolicy.LIFO, TimeValue.NEG_ONE_MILLISECOND, null);
        String base = "https://" + address.getHostString() + ":" + address.getPort();
        try (CloseableHttpClient client = HttpClients.custom().setConnectionManager(connections).build()) {
            String greeting = client.execute(new HttpGet(base + "/"),
                    r -> r.getCode() + " " + EntityUtils.toString(r.getEntity()).trim());
            HttpPost post = new HttpPost(base + "/echo");
            post.setEntity(new StringEntity("body of " + id, StandardCharsets.UTF_8));
            String echoed = client.execute(post,
                    r -> r.getCode() + " " + EntityUtils.toString(r.getEntity()).equals("body of " + id));
            return greeting + " " + echoed;
        } catch (IOException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }
}
