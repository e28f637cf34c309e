package dev.flow.mina;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A plain blocking socket client of a line server, for tests: sends lines, reads the answers (5 s timeouts).
 * Used by one test thread at a time.
 */
final class LineSocketClient implements AutoCloseable {
    final Socket socket;
    final BufferedReader in;
    final OutputStream out;

    LineSocketClient(SocketAddress server) throws IOException {
        socket = new Socket();
        try {
            socket.connect(server, 5000);
            socket.setSoTimeout(5000);
            in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            out = socket.getOutputStream();
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** Sends {@code line} and a newline. */
    void send(String line) throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** Sends {@code line}; returns the line answered, or {@code null} at the end of the stream. */
    String call(String line) throws IOException {
        send(line);
        return in.readLine();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
