package flowtest.mina;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/**
 * A thread-per-connection server handler written against {@link Socket} and JDK readers and writers: each
 * line {@code ADD a b ...} is answered {@code = sum} (non-ASCII text is echoed back upper-cased by {@code
 * ECHO}); {@code QUIT} is answered with the number of requests and ends the session. Returns that number.
 */
public class LineSumServer implements Callable<Integer> {
    private final Socket socket;

    public LineSumServer(Socket socket) {
        this.socket = socket;
    }

    @Override
    public Integer call() throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        Writer out = new BufferedWriter(new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8));
        int served = 0;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.equals("QUIT")) {
                out.write("BYE " + served + "\r\n");
                out.flush();
                break;
            }
            served++;
            if (line.startsWith("ECHO ")) {
                out.write(line.substring(5).toUpperCase(java.util.Locale.ROOT) + "\r\n");
            } else {
                long sum = 0;
                for (String n : line.substring(4).split(" ")) {
                    sum += Long.parseLong(n);
                }
                out.write("= " + sum + "\r\n");
            }
            out.flush();
        }
        return served;
    }
}
