package dev.flow.bench.load.handlers;

import dev.flow.Transport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * An HTTP/1.1 keep-alive server written the way most blocking handlers are: read the request line and
 * the headers line by line, skip a {@code Content-Length} body, write the status line, each header and the
 * body with their own calls and flush once per response. {@code GET /} gets a greeting, any other path
 * 404; a request line it cannot parse gets 400 and the connection closes, as does {@code Connection:
 * close}. It knows only the public {@link Transport} methods: no request batching, no look at the input
 * buffer. The load driver's untuned baseline (issue #19), beside the tuned HTTP sample.
 *
 * <p>Thread model: one flow (or thread) per connection; shares nothing.
 */
public final class PlainHttp implements Callable<Long> {
    private static final byte[] HELLO = "Hello from Flow\n".getBytes(StandardCharsets.UTF_8);

    private final Transport transport;

    /** Creates a handler for one connection. */
    public PlainHttp(Transport transport) {
        this.transport = transport;
    }

    /** Answers requests until the client closes or asks to; returns how many were answered. */
    @Override
    public Long call() throws IOException {
        long answered = 0;
        String requestLine;
        while ((requestLine = transport.readLine()) != null) {
            if (requestLine.isEmpty()) {
                continue;
            }
            String[] parts = requestLine.split(" ");
            if (parts.length != 3 || !parts[2].startsWith("HTTP/1.")) {
                send(400, "Bad Request", "bad request line\n".getBytes(StandardCharsets.UTF_8), false);
                break;
            }
            boolean keepAlive = parts[2].equals("HTTP/1.1");
            long contentLength = 0;
            String header;
            while ((header = transport.readLine()) != null && !header.isEmpty()) {
                int colon = header.indexOf(':');
                if (colon < 0) {
                    continue;
                }
                String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = header.substring(colon + 1).trim();
                if (name.equals("content-length")) {
                    contentLength = value.matches("[0-9]{1,18}") ? Long.parseLong(value) : -1;
                } else if (name.equals("connection")) {
                    keepAlive = !value.equalsIgnoreCase("close") && (keepAlive || value.equalsIgnoreCase("keep-alive"));
                }
            }
            if (header == null) {
                break;
            }
            if (contentLength < 0) {
                send(400, "Bad Request", "bad Content-Length\n".getBytes(StandardCharsets.UTF_8), false);
                break;
            }
            transport.skip(contentLength);
            String path = parts[1];
            int query = path.indexOf('?');
            if (query >= 0) {
                path = path.substring(0, query);
            }
            if (path.equals("/")) {
                send(200, "OK", HELLO, keepAlive);
            } else {
                send(404, "Not Found", ("no such path: " + path + "\n").getBytes(StandardCharsets.UTF_8), keepAlive);
            }
            answered++;
            if (!keepAlive) {
                break;
            }
        }
        return answered;
    }

    private void send(int status, String reason, byte[] body, boolean keepAlive) throws IOException {
        transport.writeText("HTTP/1.1 " + status + " " + reason + "\r\n");
        transport.writeText("Content-Type: text/plain; charset=utf-8\r\n");
        transport.writeText("Content-Length: " + body.length + "\r\n");
        if (!keepAlive) {
            transport.writeText("Connection: close\r\n");
        }
        transport.writeText("\r\n");
        transport.write(body);
        transport.flush();
    }
}
