package flowtest.mina;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/**
 * A thread-per-connection server handler written against {@link Socket}, a JDK reader and an auto-flushing
 * {@code PrintWriter}: each
 * line {@code ADD a b ...} is answered {@code = sum} (non-ASCII text is echoed back upper-cased by {@code
 * ECHO}); {@code QUIT} is answered with the number of requests and ends the session. Returns that number.
 * {@code beforeFirstReply} runs once, before the first answer is written.
 */
public class LineSumServer implements Callable<Integer> {
    private final Socket socket;
    private final Runnable beforeFirstReply;

    public LineSumServer(Socket socket) {
        this(socket, () -> { });
    }

    public LineSumServer(Socket socket, Runnable beforeFirstReply) {
        this.socket = socket;
        this.beforeFirstReply = beforeFirstReply;
    }

    @Override
    public Integer call() throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8), true);
        int served = 0;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (served == 0) {
                beforeFirstReply.run();
            }
            if (line.equals("QUIT")) {
                out.println("BYE " + served);
                break;
            }
            served++;
            if (line.startsWith("ECHO ")) {
                out.println(line.substring(5).toUpperCase(java.util.Locale.ROOT));
            } else {
                long sum = 0;
                for (String n : line.substring(4).split(" ")) {
                    sum += Long.parseLong(n);
                }
                out.printf("= %d%n", sum);
            }
        }
        return served;
    }
}
