package flowtest.libraries;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import javax.net.SocketFactory;
import redis.clients.jedis.JedisSocketFactory;
import redis.clients.jedis.exceptions.JedisConnectionException;

/** Jedis's socket hook over a {@link SocketFactory}: what a Jedis user writes to connect through Flow. */
public final class FlowJedisSockets implements JedisSocketFactory {
    private final SocketFactory factory;
    private final InetSocketAddress address;

    public FlowJedisSockets(SocketFactory factory, InetSocketAddress address) {
        this.factory = factory;
        this.address = address;
    }

    @Override
    public Socket createSocket() {
        try {
            Socket s = factory.createSocket();
            s.setTcpNoDelay(true);
            s.setKeepAlive(true);
            s.connect(address, 5000);
            s.setSoTimeout(10_000);
            return s;
        } catch (IOException e) {
            throw new JedisConnectionException("connecting to " + address, e);
        }
    }
}
