package flowtest.libraries;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.Callable;
import javax.net.SocketFactory;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;

/** A Jedis session through a socket factory: commands, an error reply, a pipeline; returns what it saw. */
public class JedisClient implements Callable<String> {
    private final SocketFactory factory;
    private final InetSocketAddress address;
    private final String id;

    public JedisClient(SocketFactory factory, InetSocketAddress address, String id) {
        this.factory = factory;
        this.address = address;
        this.id = id;
    }

    /** The connection: Jedis over the factory's sockets. */
    protected Jedis open() {
        return new Jedis(new FlowJedisSockets(factory, address));
    }

    @Override
    public String call() {
        StringBuilder log = new StringBuilder();
        try (Jedis j = open()) {
            log.append(j.ping()).append(' ');
            log.append(j.set(id + ":k", "v")).append(' ').append(j.get(id + ":k")).append(' ');
            log.append(j.incr(id + ":n")).append(j.incr(id + ":n")).append(' ');
            try {
                j.incr(id + ":k");
            } catch (JedisDataException e) {
                log.append(e.getMessage()).append(' ');
            }
            Pipeline p = j.pipelined();
            Response<String> a = p.set(id + ":a", "a");
            Response<Long> n = p.incr(id + ":n");
            Response<List<String>> both = p.mget(id + ":k", id + ":missing");
            p.sync();
            log.append(a.get()).append(n.get()).append(both.get()).append(' ');
            log.append(j.del(id + ":k", id + ":n"));
        }
        return log.toString();
    }
}
