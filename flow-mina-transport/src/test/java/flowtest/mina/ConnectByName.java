package flowtest.mina;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import javax.net.SocketFactory;

/**
 * Connects to {@code localhost} by name, with {@code new Socket(host, port)} and with {@code
 * SocketFactory.getDefault().createSocket(host, port)}, and echoes a line over each: the lookups a connect by name
 * makes. Returns what the sockets report.
 */
public class ConnectByName implements Callable<String> {

    private final int port;

    public ConnectByName(Integer port) {
        this.port = port;
    }

    @Override
    public String call() throws Exception {
        StringBuilder out = new StringBuilder();
        try (Socket a = new Socket("localhost", port);
             Socket b = SocketFactory.getDefault().createSocket("localhost", port)) {
            for (Socket s : new Socket[] {a, b}) {
                OutputStream w = s.getOutputStream();
                w.write("echo\nby name\n".getBytes(StandardCharsets.US_ASCII));
                w.flush();
                BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
                out.append(s.getInetAddress()).append(' ').append(s.getPort() == port).append(' ')
                        .append(in.readLine()).append("; ");
            }
        }
        return out.toString();
    }
}
