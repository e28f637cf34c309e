package flowtest.mina;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import javax.net.SocketFactory;

/** The client of {@link LineSumServer}: sends {@code rounds} requests and an echo, returns what it read. */
public class LineSumClient implements Callable<String> {
    private final SocketFactory factory;
    private final InetSocketAddress address;
    private final int rounds;
    private final Runnable beforeFirstRequest;

    public LineSumClient(SocketFactory factory, InetSocketAddress address, Integer rounds) {
        this(factory, address, rounds, () -> { });
    }

    /** Runs {@code beforeFirstRequest} once connected, before it writes anything. */
    public LineSumClient(SocketFactory factory, InetSocketAddress address, Integer rounds, Runnable beforeFirstRequest) {
        this.factory = factory;
        this.address = address;
        this.rounds = rounds;
        this.beforeFirstRequest = beforeFirstRequest;
    }

    @Override
    public String call() throws IOException {
        StringBuilder log = new StringBuilder();
        try (Socket s = factory.createSocket()) {
            s.connect(address, 5000);
            s.setSoTimeout(10_000);
            beforeFirstRequest.run();
            Writer out = new OutputStreamWriter(s.getOutputStream(), StandardCharsets.UTF_8);
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            for (int r = 1; r <= rounds; r++) {
                StringBuilder req = new StringBuilder("ADD");
                for (int i = 0; i < r; i++) {
                    req.append(' ').append(1000L * r + i);
                }
                out.write(req.append("\r\n").toString());
                out.flush();
                log.append(in.readLine()).append(' ');
            }
            out.write("ECHO h\u00e9llo w\u00f6rld \ud83d\ude00\nQUIT\n");
            out.flush();
            log.append(in.readLine()).append(' ').append(in.readLine()).append(' ').append(in.read());
        }
        return log.toString();
    }
}
