package flowtest.libraries;

import java.net.InetSocketAddress;
import javax.net.SocketFactory;
import redis.clients.jedis.Jedis;

/**
 * {@link JedisClient}'s session with Jedis left to make its own sockets ({@code new Jedis(host, port)}: its
 * default socket factory calls {@code new Socket()}); the factory argument is ignored.
 */
public class JedisOwnSockets extends JedisClient {
    private final InetSocketAddress address;

    public JedisOwnSockets(SocketFactory ignored, InetSocketAddress address, String id) {
        super(ignored, address, id);
        this.address = address;
    }

    @Override
    protected Jedis open() {
        return new Jedis(address.getHostString(), address.getPort());
    }
}
