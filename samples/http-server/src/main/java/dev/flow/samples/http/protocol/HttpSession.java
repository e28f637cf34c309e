package dev.flow.samples.http.protocol;

import dev.flow.LineTerminator;
import dev.flow.LineTooLongException;
import dev.flow.Transport;
import dev.flow.samples.http.HttpLimits;
import dev.flow.samples.wire.OutputBuffer;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * One HTTP/1.1 connection: keep-alive and pipelining, {@code Content-Length} and chunked request
 * bodies, {@code Expect: 100-continue}, {@code Connection: close}. Routes: {@code GET /} (a greeting),
 * {@code POST /echo} (the body back), {@code GET /sleep?ms=N} ({@code Thread.sleep(N)}, then a reply).
 *
 * <p>Each response is assembled in memory and written at once; responses to pipelined requests are
 * batched and go out when the input runs dry. A malformed request gets 400, an unknown path 404, a
 * known path with another method 405, a request head over the {@link HttpLimits limit} 414 or 431, a
 * body over it 413, a transfer coding other than chunked 501, another HTTP major version 505: each with
 * {@code Connection: close}, and the session ends. A request that does not arrive within the
 * transport's request timeout gets 408 and the session ends.
 *
 * <p>Thread model: one flow (or thread) per connection; shares nothing.
 */
public final class HttpSession implements Callable<Long> {

    private static final int BATCH_BYTES = 64 * 1024;
    private static final String TEXT = "text/plain; charset=utf-8";

    private final Transport transport;
    private final HttpLimits limits;
    private final OutputBuffer out = new OutputBuffer(1024);
    private int headBudget;
    /** The request being served, once its head is read; {@code null} before. */
    private Request current;

    /** Creates the session of one connection. */
    public HttpSession(Transport transport, HttpLimits limits) {
        this.transport = transport;
        this.limits = limits;
    }

    /** Serves requests until the peer closes, a response closes the connection, or an error; returns the number served. */
    @Override
    public Long call() throws IOException {
        long served = 0;
        try {
            for (;;) {
                current = null;
                Request request = readHead();
                if (request == null) {
                    break;
                }
                current = request;
                readBody(request);
                transport.endRequest();
                served++;
                boolean keepAlive = request.keepAlive();
                route(request, keepAlive);
                if (!keepAlive) {
                    break;
                }
                out.sendWhenDry(transport, BATCH_BYTES);
            }
        } catch (HttpError e) {
            respond(current, e.status, TEXT, (e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8), false);
        } catch (SocketTimeoutException e) {
            // The request did not arrive in time (requestTimeout): 408, then the session ends as timed out.
            respond(current, 408, TEXT, "request timeout\n".getBytes(StandardCharsets.UTF_8), false);
            try {
                out.send(transport);
            } catch (IOException notSent) {
                e.addSuppressed(notSent);
            }
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while serving " + transport.remoteAddress());
        }
        out.send(transport);
        return served;
    }

    /** Reads the request line and header fields; {@code null} at end of stream before a request. */
    private Request readHead() throws IOException, HttpError {
        headBudget = limits.maxHeaderBytes();
        String line;
        do {
            line = readHeadLine(414, "request line");
            if (line == null) {
                return null;
            }
        } while (line.isEmpty());
        String[] parts = line.split(" ", -1);
        if (parts.length != 3 || !parts[0].matches("[A-Z]{1,16}") || !(parts[1].startsWith("/") || parts[1].equals("*"))) {
            throw new HttpError(400, "malformed request line: " + printable(line));
        }
        String version = parts[2];
        if (!version.matches("HTTP/[0-9]\\.[0-9]")) {
            throw new HttpError(400, "malformed HTTP version: " + printable(version));
        }
        if (version.charAt(5) != '1') {
            throw new HttpError(505, "HTTP version " + version + " not supported (expected: HTTP/1.x)");
        }
        Request request = new Request(parts[0], parts[1], !version.equals("HTTP/1.0"));
        for (;;) {
            String field = readHeadLine(431, "request header fields");
            if (field == null) {
                throw new EOFException("end of stream inside a request head");
            }
            if (field.isEmpty()) {
                return request;
            }
            int colon = field.indexOf(':');
            if (colon <= 0 || !field.substring(0, colon).matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
                throw new HttpError(400, "malformed header field: " + printable(field));
            }
            request.add(field.substring(0, colon), field.substring(colon + 1).trim());
        }
    }

    /** Reads one line of the request head, charging it to the head's byte budget. */
    private String readHeadLine(int status, String what) throws IOException, HttpError {
        String tooLarge = what + " too large (expected: <= " + limits.maxHeaderBytes() + " bytes in the request head)";
        if (headBudget <= 2) {
            throw new HttpError(status, tooLarge);
        }
        String line;
        try {
            line = transport.readLine(LineTerminator.LF_OR_CRLF, headBudget - 2);
        } catch (LineTooLongException e) {
            throw new HttpError(status, tooLarge);
        }
        if (line != null) {
            headBudget -= line.length() + 2;
        }
        return line;
    }

    private void readBody(Request request) throws IOException, HttpError {
        String coding = request.get("transfer-encoding");
        List<String> lengths = request.all("content-length");
        if (coding != null && !lengths.isEmpty()) {
            throw new HttpError(400, "both Transfer-Encoding and Content-Length");
        }
        if (coding != null && !coding.equalsIgnoreCase("chunked")) {
            throw new HttpError(501, "Transfer-Encoding: " + printable(coding) + " not implemented (expected: chunked)");
        }
        long length = 0;
        if (!lengths.isEmpty()) {
            String first = lengths.get(0);
            if (!first.matches("[0-9]{1,18}") || new HashSet<>(lengths).size() != 1) {
                throw new HttpError(400, "invalid Content-Length: " + printable(String.join(", ", lengths)));
            }
            length = Long.parseLong(first);
            if (length > limits.maxBodyBytes()) {
                throw new HttpError(413, "body of " + length + " bytes too large (expected: <= " + limits.maxBodyBytes() + ")");
            }
        }
        String expect = request.get("expect");
        if (expect != null) {
            if (!expect.equalsIgnoreCase("100-continue")) {
                throw new HttpError(417, "Expect: " + printable(expect) + " (expected: 100-continue)");
            }
            if (request.http11 && (length > 0 || coding != null)) {
                out.send(transport);
                out.ascii("HTTP/1.1 100 Continue").crlf().crlf();
                out.send(transport);
            }
        }
        if (coding != null) {
            request.body = readChunked();
        } else if (length > 0) {
            request.body = transport.readFully((int) length);
        }
    }

    /** Reads a chunked body and its trailer fields; the chunks count toward the body limit, the trailers toward the head's. */
    private byte[] readChunked() throws IOException, HttpError {
        OutputBuffer body = new OutputBuffer(1024);
        byte[] chunk = new byte[8192];
        for (;;) {
            String sizeLine = readHeadLine(431, "chunk size line");
            if (sizeLine == null) {
                throw new EOFException("end of stream inside a chunked body");
            }
            int ext = sizeLine.indexOf(';');
            String hex = (ext < 0 ? sizeLine : sizeLine.substring(0, ext)).trim();
            if (!hex.matches("[0-9A-Fa-f]{1,15}")) {
                throw new HttpError(400, "malformed chunk size: " + printable(sizeLine));
            }
            long size = Long.parseLong(hex, 16);
            if (size == 0) {
                break;
            }
            if (body.size() + size > limits.maxBodyBytes()) {
                throw new HttpError(413, "chunked body over " + limits.maxBodyBytes() + " bytes (expected: <= "
                        + limits.maxBodyBytes() + ")");
            }
            for (long left = size; left > 0;) {
                int n = (int) Math.min(left, chunk.length);
                transport.readFully(chunk, 0, n);
                body.bytes(chunk, 0, n);
                left -= n;
            }
            String end = readHeadLine(400, "chunk terminator");
            if (end == null || !end.isEmpty()) {
                throw new HttpError(400, "chunk of " + size + " bytes not followed by CRLF");
            }
        }
        for (;;) {
            String trailer = readHeadLine(431, "trailer fields");
            if (trailer == null || trailer.isEmpty()) {
                return body.toByteArray();
            }
        }
    }

    private void route(Request request, boolean keepAlive) throws InterruptedException, HttpError {
        String path = request.path();
        boolean get = request.method.equals("GET") || request.method.equals("HEAD");
        switch (path) {
            case "/":
                if (!get) {
                    throw new HttpError(405, request.method + " " + path + " (expected: GET or HEAD)");
                }
                respond(request, 200, TEXT, "Hello from Flow\n".getBytes(StandardCharsets.UTF_8), keepAlive);
                return;
            case "/echo":
                if (!request.method.equals("POST")) {
                    throw new HttpError(405, request.method + " " + path + " (expected: POST)");
                }
                String type = request.get("content-type");
                respond(request, 200, type != null ? type : "application/octet-stream", request.body, keepAlive);
                return;
            case "/sleep":
                if (!get) {
                    throw new HttpError(405, request.method + " " + path + " (expected: GET or HEAD)");
                }
                String ms = request.query("ms");
                if (ms == null || !ms.matches("[0-9]{1,9}") || Integer.parseInt(ms) > limits.maxSleepMillis()) {
                    throw new HttpError(400, "ms: " + (ms == null ? "missing" : printable(ms)) + " (expected: 0.."
                            + limits.maxSleepMillis() + ")");
                }
                Thread.sleep(Integer.parseInt(ms));
                respond(request, 200, TEXT, ("slept " + ms + " ms\n").getBytes(StandardCharsets.UTF_8), keepAlive);
                return;
            default:
                respond(request, 404, TEXT, ("no such path: " + printable(path) + "\n").getBytes(StandardCharsets.UTF_8),
                        keepAlive);
        }
    }

    /** Appends a response; {@code request} is {@code null} for an error before a request was read. */
    private void respond(Request request, int status, String contentType, byte[] body, boolean keepAlive) {
        boolean http10 = request != null && !request.http11;
        out.ascii(http10 ? "HTTP/1.0 " : "HTTP/1.1 ").decimal(status).ascii(" ").ascii(reason(status)).crlf()
                .ascii("Content-Type: ").ascii(contentType).crlf()
                .ascii("Content-Length: ").decimal(body.length).crlf();
        if (status == 405) {
            out.ascii("Allow: ").ascii(request != null && request.path().equals("/echo") ? "POST" : "GET, HEAD").crlf();
        }
        if (!keepAlive) {
            out.ascii("Connection: close").crlf();
        } else if (http10) {
            out.ascii("Connection: keep-alive").crlf();
        }
        out.crlf();
        if (request == null || !request.method.equals("HEAD")) {
            out.bytes(body);
        }
    }


    private static String reason(int status) {
        switch (status) {
            case 200: return "OK";
            case 400: return "Bad Request";
            case 404: return "Not Found";
            case 405: return "Method Not Allowed";
            case 408: return "Request Timeout";
            case 413: return "Content Too Large";
            case 414: return "URI Too Long";
            case 417: return "Expectation Failed";
            case 431: return "Request Header Fields Too Large";
            case 501: return "Not Implemented";
            case 505: return "HTTP Version Not Supported";
            default: return "Status " + status;
        }
    }

    private static String printable(String s) {
        String cut = s.length() > 64 ? s.substring(0, 64) + "..." : s;
        return cut.replaceAll("[^\\x20-\\x7e]", "?");
    }
}
