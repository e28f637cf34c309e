package flowtest.mina;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import javax.net.SocketFactory;

/** The client of {@link LineSumServer}: sends {@code rounds} requests and an echo, returns what it read. */
public class LineSumClient extends SumClient {

    public LineSumClient(SocketFactory factory, InetSocketAddress address, Integer rounds) {
        this(factory, address, rounds, () -> { });
    }

    /** Runs {@code beforeFirstRequest} once connected, before it writes anything. */
    public LineSumClient(SocketFactory factory, InetSocketAddress address, Integer rounds, Runnable beforeFirstRequest) {
        super(factory, address, rounds, beforeFirstRequest);
    }

    @Override
    protected String talk(Socket s) throws IOException {
        StringBuilder log = new StringBuilder();
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
        return log.toString();
    }
}
