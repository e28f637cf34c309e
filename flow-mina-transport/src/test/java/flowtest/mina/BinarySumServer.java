package flowtest.mina;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.util.concurrent.Callable;

/**
 * A thread-per-connection server handler written against {@link Socket} and {@code java.io} data streams:
 * each request is an int count {@code n} then {@code n} longs; the answer is their sum and the request's
 * number. A negative count ends the session. Returns the number of requests served. {@code beforeFirstReply}
 * runs once, before the first answer is written.
 */
public class BinarySumServer implements Callable<Integer> {
    private final Socket socket;
    private final Runnable beforeFirstReply;

    public BinarySumServer(Socket socket) {
        this(socket, () -> { });
    }

    public BinarySumServer(Socket socket, Runnable beforeFirstReply) {
        this.socket = socket;
        this.beforeFirstReply = beforeFirstReply;
    }

    @Override
    public Integer call() throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
        int served = 0;
        for (int n = in.readInt(); n >= 0; n = in.readInt()) {
            if (served == 0) {
                beforeFirstReply.run();
            }
            long sum = 0;
            for (int i = 0; i < n; i++) {
                sum += in.readLong();
            }
            out.writeLong(sum);
            out.writeInt(++served);
            out.flush();
        }
        out.writeUTF("bye from " + socket.getLocalPort());
        out.flush();
        return served;
    }
}
