package flowtest.mina;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import javax.net.SocketFactory;

/** The client of {@link BinarySumServer}: sends {@code rounds} requests and returns what it read. */
public class BinarySumClient extends SumClient {

    public BinarySumClient(SocketFactory factory, InetSocketAddress address, Integer rounds) {
        this(factory, address, rounds, () -> { });
    }

    /** Runs {@code beforeFirstRequest} once connected, before it writes anything. */
    public BinarySumClient(SocketFactory factory, InetSocketAddress address, Integer rounds, Runnable beforeFirstRequest) {
        super(factory, address, rounds, beforeFirstRequest);
    }

    @Override
    protected String talk(Socket s) throws IOException {
        StringBuilder log = new StringBuilder();
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
        for (int r = 1; r <= rounds; r++) {
            out.writeInt(r);
            for (int i = 0; i < r; i++) {
                out.writeLong(1000L * r + i);
            }
            out.flush();
            log.append(in.readLong()).append('#').append(in.readInt()).append(' ');
        }
        out.writeInt(-1);
        out.flush();
        String bye = in.readUTF();
        log.append(bye.startsWith("bye from " + address.getPort()) ? "bye" : bye).append(' ').append(in.read());
        return log.toString();
    }
}
