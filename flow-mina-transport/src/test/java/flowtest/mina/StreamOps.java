package flowtest.mina;

import dev.flow.Transport;
import java.io.DataInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.Callable;

/** Plain blocking code over a transport's stream views, for the stream-view tests. */
public class StreamOps implements Callable<Object> {
    private final String op;
    private final Transport transport;

    public StreamOps(String op, Transport transport) {
        this.op = op;
        this.transport = transport;
    }

    @Override
    public Object call() throws Exception {
        switch (op) {
            case "read4": {
                InputStream in = transport.inputStream();
                byte[] b = new byte[4];
                int n = in.readNBytes(b, 0, 4);
                return n + ":" + new String(b, 0, n, "US-ASCII");
            }
            case "readInt":
                return new DataInputStream(transport.inputStream()).readInt();
            case "echoUntilDry": {
                InputStream in = transport.inputStream();
                OutputStream out = transport.outputStream();
                byte[] b = new byte[2];
                int flushes = 0;
                for (int i = 0; i < 3; i++) {
                    in.read(b);
                    out.write(b);
                    if (in.available() == 0) {
                        out.flush();
                        flushes++;
                    }
                }
                return flushes;
            }
            default:
                throw new IllegalArgumentException("op: " + op);
        }
    }
}
