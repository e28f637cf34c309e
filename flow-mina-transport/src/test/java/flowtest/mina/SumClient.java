package flowtest.mina;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.Callable;
import javax.net.SocketFactory;

/**
 * What {@link BinarySumClient} and {@link LineSumClient} share around their protocols: connects (5 s), sets
 * a 10 s read timeout, runs {@code beforeFirstRequest}, then lets the protocol talk over the socket and
 * returns its transcript. One thread or flow, once.
 */
public abstract class SumClient implements Callable<String> {
    /** The server's address; its port is in the server's goodbye. */
    protected final InetSocketAddress address;
    /** The number of requests to send. */
    protected final int rounds;
    private final SocketFactory factory;
    private final Runnable beforeFirstRequest;

    /** Runs {@code beforeFirstRequest} once connected, before it writes anything. */
    protected SumClient(SocketFactory factory, InetSocketAddress address, int rounds, Runnable beforeFirstRequest) {
        this.factory = factory;
        this.address = address;
        this.rounds = rounds;
        this.beforeFirstRequest = beforeFirstRequest;
    }

    @Override
    public final String call() throws IOException {
        try (Socket s = factory.createSocket()) {
            s.connect(address, 5000);
            s.setSoTimeout(10_000);
            beforeFirstRequest.run();
            return talk(s);
        }
    }

    /** Sends {@link #rounds} requests and the protocol's ending over {@code s}; returns what it read. */
    protected abstract String talk(Socket s) throws IOException;
}
