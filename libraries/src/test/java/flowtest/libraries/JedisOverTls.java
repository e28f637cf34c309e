package flowtest.libraries;

import java.net.InetSocketAddress;
import javax.net.SocketFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;

/**
 * {@link JedisClient}'s session over TLS, Jedis making its own socket and layering TLS over it itself ({@code
 * ssl(true)} with the factory of {@code tls}, taken here: {@code tls.getSocketFactory()}; no host-name check by the
 * engine, and a verifier that asks for the session, which Jedis calls before its first command); the plain factory
 * argument is ignored.
 */
public class JedisOverTls extends JedisClient {
    private final SSLContext tls;
    private final InetSocketAddress address;

    public JedisOverTls(SocketFactory ignored, SSLContext tls, InetSocketAddress address, String id) {
        super(ignored, address, id);
        this.tls = tls;
        this.address = address;
    }

    @Override
    protected Jedis open() {
        return new Jedis(address.getHostString(), address.getPort(),
                DefaultJedisClientConfig.builder().ssl(true).sslSocketFactory(tls.getSocketFactory())
                        .sslParameters(new SSLParameters()).hostnameVerifier((host, session) -> session.isValid())
                        .clientSetInfoConfig(ClientSetInfoConfig.DISABLED).build());
    }
}
