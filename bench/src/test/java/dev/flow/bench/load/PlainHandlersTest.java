package dev.flow.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.flow.FlowStats;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The plain handlers ({@code PlainHttp}, {@code PlainResp}) on what the load driver never sends: request
 * bodies, {@code Connection: close}, unknown commands, broken framing; in a sync and a continuation server
 * in this JVM, byte for byte; the session's flow ends, neither failed nor left running.
 */
@Timeout(60)
class PlainHandlersTest {

    private static final String TEXT = "Content-Type: text/plain; charset=utf-8\r\n";

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Mode.class, names = {"SYNC", "CONTINUATION_IMMEDIATELY"})
    void plainHttpSkipsARequestBodyAndClosesTheConnectionWhenAsked(Mode mode) throws Exception {
        String requests = "POST /upload?x=1 HTTP/1.1\r\nHost: t\r\nContent-Length: 11\r\n\r\nhello\r\nGET "
                + "GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n";
        String expected = "HTTP/1.1 404 Not Found\r\n" + TEXT + "Content-Length: 22\r\n\r\nno such path: /upload\n"
                + "HTTP/1.1 200 OK\r\n" + TEXT + "Content-Length: 16\r\nConnection: close\r\n\r\nHello from Flow\n";
        assertEquals(expected, exchange(mode, "http", requests));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Mode.class, names = {"SYNC", "CONTINUATION_IMMEDIATELY"})
    void plainHttpAnswersABadRequestLineWith400AndCloses(Mode mode) throws Exception {
        String expected = "HTTP/1.1 400 Bad Request\r\n" + TEXT + "Content-Length: 17\r\nConnection: close\r\n\r\n"
                + "bad request line\n";
        assertEquals(expected, exchange(mode, "http", "HELLO\r\n"));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Mode.class, names = {"SYNC", "CONTINUATION_IMMEDIATELY"})
    void plainRespAnswersAnUnknownCommandWithAnErrorAndClosesOnBrokenFraming(Mode mode) throws Exception {
        String requests = "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$3\r\nv\r\n\r\n"
                + "*2\r\n$4\r\nECHO\r\n$2\r\nhi\r\n"
                + "*2\r\n$3\r\nget\r\n$1\r\nk\r\n"
                + "*2\r\n$3\r\nGET\r\n$7\r\nmissing\r\n"
                + "*1\r\n$4\r\nPING\r\n"
                + "PING\r\n";
        String expected = "+OK\r\n"
                + "-ERR unknown command or wrong number of arguments for 'ECHO'\r\n"
                + "$3\r\nv\r\n\r\n"
                + "$-1\r\n"
                + "+PONG\r\n"
                + "-ERR Protocol error: expected a multibulk of 1..1024 arguments\r\n";
        assertEquals(expected, exchange(mode, "redis", requests));
    }

    @Test
    void plainHandlersHaveNoSmtpServer() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LoadServer.Served.of("smtp", Handlers.PLAIN));
        assertEquals("handlers plain: protocol smtp has no plain handler (expected: echo, http or redis)", e.getMessage());
    }

    /**
     * Sends {@code requests} in one write to a {@code protocol} server of plain handlers in {@code mode};
     * returns all it answered until it closed the connection (nothing sent after the request that closes
     * it: unread input would make the close a reset).
     */
    private static String exchange(Mode mode, String protocol, String requests) throws Exception {
        try (LoadServer server = LoadServer.start(mode, protocol, Handlers.PLAIN, 1, 1, 0);
                Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            s.setSoTimeout(20_000);
            s.getOutputStream().write(requests.getBytes(StandardCharsets.UTF_8));
            s.getOutputStream().flush();
            String answer = readToEnd(s.getInputStream());
            assertEquals(0, server.failures(), "handler failures");
            if (mode.continuation()) {
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (server.flowStats().active() > 0 && System.nanoTime() - deadline < 0) {
                    Thread.sleep(1);
                }
                FlowStats st = server.flowStats();
                assertEquals(0, st.active(), st::toString);
                assertEquals(0, st.failed(), st::toString);
                assertEquals(1, st.completed(), st::toString);
            }
            return answer;
        }
    }

    private static String readToEnd(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] b = new byte[4096];
        for (int n; (n = in.read(b)) >= 0;) {
            all.write(b, 0, n);
        }
        return all.toString(StandardCharsets.UTF_8);
    }
}
