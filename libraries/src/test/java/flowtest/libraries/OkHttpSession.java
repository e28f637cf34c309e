package flowtest.libraries;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javax.net.SocketFactory;
import okhttp3.ConnectionPool;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * An OkHttp client whose connections are sockets of a factory ({@code OkHttpClient.Builder().socketFactory}):
 * GET, POST, a slow response and a 404 over one kept-alive connection, the same requests as {@link
 * HttpClient5Client}. Each session builds its client and shuts it down (dispatcher, connection pool). Fast
 * fallback is off, so that the TCP connect runs in the calling flow rather than on OkHttp's task runner.
 */
public class OkHttpSession implements Callable<String> {
    private final SocketFactory factory;
    private final InetSocketAddress address;
    private final String id;

    public OkHttpSession(SocketFactory factory, InetSocketAddress address, String id) {
        this.factory = factory;
        this.address = address;
        this.id = id;
    }

    @Override
    public String call() throws IOException {
        String base = "http://" + address.getHostString() + ":" + address.getPort();
        OkHttpClient client = new OkHttpClient.Builder().socketFactory(factory).fastFallback(false)
                .connectionPool(new ConnectionPool(1, 1, TimeUnit.MINUTES))
                .connectTimeout(10, TimeUnit.SECONDS).readTimeout(10, TimeUnit.SECONDS).build();
        StringBuilder log = new StringBuilder();
        try {
            try (Response r = client.newCall(new Request.Builder().url(base + "/").build()).execute()) {
                log.append(r.code()).append(' ').append(r.body().string().trim()).append(' ');
            }
            Request post = new Request.Builder().url(base + "/echo")
                    .post(RequestBody.create("body of " + id, MediaType.get("text/plain; charset=utf-8"))).build();
            try (Response r = client.newCall(post).execute()) {
                log.append(r.code()).append(' ').append(r.body().string().equals("body of " + id)).append(' ');
            }
            try (Response r = client.newCall(new Request.Builder().url(base + "/sleep?ms=20").build()).execute()) {
                log.append(r.code()).append(' ');
            }
            try (Response r = client.newCall(new Request.Builder().url(base + "/nope").build()).execute()) {
                log.append(r.code());
            }
        } finally {
            client.dispatcher().executorService().shutdown();
            client.connectionPool().evictAll();
        }
        return log.toString();
    }
}
