package dev.flow.samples.hostile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/** A well-behaved HTTP/1.1 client of the HTTP sample: one keep-alive connection, one request at a time, with timeouts. */
final class HttpProbe implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private HttpProbe(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /** Connects to the sample on 127.0.0.1:{@code port}; every connect and read gives up after {@code timeout}. */
    static HttpProbe connect(int port, Duration timeout) throws IOException {
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), (int) timeout.toMillis());
            s.setSoTimeout((int) timeout.toMillis());
            s.setTcpNoDelay(true);
            return new HttpProbe(s);
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /** Whether one {@code GET /} on a new connection to {@code port} is answered 200 within {@code timeout}. */
    static boolean served(int port, Duration timeout) {
        try (HttpProbe p = connect(port, timeout)) {
            return p.get("/") == 200;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Whether one {@code GET /} with {@code Connection: close} on a new connection to {@code port} is answered
     * 200 and the connection then closed by the server, each read within {@code timeout}: the server closes it
     * only once the session's handler has returned and its end has been counted.
     */
    static boolean servedAndClosed(int port, Duration timeout) {
        try (HttpProbe p = connect(port, timeout)) {
            p.out.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            p.out.flush();
            return new String(p.in.readAllBytes(), StandardCharsets.US_ASCII).startsWith("HTTP/1.1 200 ");
        } catch (IOException e) {
            return false;
        }
    }

    /** Sends {@code GET path} and reads the whole response; returns its status code. */
    int get(String path) throws IOException {
        out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String status = line();
        if (!status.startsWith("HTTP/1.1 ")) {
            throw new IOException("status line: " + status + " (expected: HTTP/1.1 ...)");
        }
        int length = 0;
        for (String h; !(h = line()).isEmpty(); ) {
            if (h.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(h.substring("content-length:".length()).trim());
            }
        }
        if (in.readNBytes(length).length != length) {
            throw new IOException("body: end of stream before " + length + " bytes");
        }
        return Integer.parseInt(status.substring(9, 12));
    }

    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c; (c = in.read()) != '\n'; ) {
            if (c < 0) {
                throw new IOException("end of stream in a response line");
            }
            if (c != '\r') {
                b.write(c);
            }
        }
        return b.toString(StandardCharsets.US_ASCII);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
