package dev.flow.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Each protocol's requests and the check of its responses, without a network. */
class LoadProtocolTest {

    private static String request(LoadProtocol p, int id, long seq) {
        byte[] b = new byte[p.maxRequestBytes(24)];
        return new String(b, 0, p.request(b, 0, id, seq, 24), StandardCharsets.ISO_8859_1);
    }

    private static int line(LoadProtocol.Parser parser, String line, int id, long seq) {
        byte[] b = line.getBytes(StandardCharsets.ISO_8859_1);
        return parser.line(b, b.length, id, seq);
    }

    @Test
    void respSetGetExpectsTheValueJustSetAndNothingElse() {
        LoadProtocol p = LoadProtocol.RESP_SETGET;
        assertEquals("*3\r\n$3\r\nSET\r\n$3\r\nk:7\r\n$24\r\nv:7:1:xxxxxxxxxxxxxxxxxx\r\n", request(p, 7, 1));
        assertEquals("*2\r\n$3\r\nGET\r\n$3\r\nk:7\r\n", request(p, 7, 2));
        LoadProtocol.Parser parser = p.parser(24);
        assertEquals(LoadProtocol.COMPLETE, line(parser, "+OK", 7, 1));
        assertEquals(26, line(parser, "$24", 7, 2));
        byte[] value = "v:7:1:xxxxxxxxxxxxxxxxxx\r\n".getBytes(StandardCharsets.ISO_8859_1);
        assertEquals(LoadProtocol.COMPLETE, parser.body(value, value.length, 7, 2));
        byte[] stale = "v:7:3:xxxxxxxxxxxxxxxxxx\r\n".getBytes(StandardCharsets.ISO_8859_1);
        assertEquals(LoadProtocol.MISMATCH, parser.body(stale, stale.length, 7, 2));
        assertEquals(LoadProtocol.MISMATCH, line(parser, "+OK", 7, 2));
        assertEquals(LoadProtocol.MISMATCH, line(parser, "-ERR unknown command", 7, 1));
    }

    @Test
    void httpNeedsStatus200AndAContentLengthBody() {
        LoadProtocol.Parser parser = LoadProtocol.HTTP.parser(24);
        assertEquals("GET /?c=3&s=9 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", request(LoadProtocol.HTTP, 3, 9));
        assertEquals(LoadProtocol.MORE, line(parser, "HTTP/1.1 200 OK", 3, 9));
        assertEquals(LoadProtocol.MORE, line(parser, "Content-Length: 16", 3, 9));
        assertEquals(16, line(parser, "", 3, 9));
        assertEquals(LoadProtocol.MISMATCH, line(parser, "HTTP/1.1 404 Not Found", 3, 10));
        LoadProtocol.Parser noLength = LoadProtocol.HTTP.parser(24);
        assertEquals(LoadProtocol.MORE, line(noLength, "HTTP/1.1 200 OK", 3, 9));
        assertEquals(LoadProtocol.MISMATCH, line(noLength, "", 3, 9));
    }

    @Test
    void echoAndPingCompareTheWholeLine() {
        assertEquals("5 2 xxxxxxxxxxxxxxxxxxxx\n", request(LoadProtocol.ECHO, 5, 2));
        LoadProtocol.Parser echo = LoadProtocol.ECHO.parser(24);
        assertEquals(LoadProtocol.COMPLETE, line(echo, "5 2 xxxxxxxxxxxxxxxxxxxx", 5, 2));
        assertEquals(LoadProtocol.MISMATCH, line(echo, "5 3 xxxxxxxxxxxxxxxxxxxx", 5, 2));
        LoadProtocol.Parser ping = LoadProtocol.RESP_PING.parser(24);
        assertEquals(LoadProtocol.COMPLETE, line(ping, "+PONG", 1, 1));
        assertEquals(LoadProtocol.MISMATCH, line(ping, "+PON", 1, 2));
    }

    @Test
    void smtpSendsAWholeTransactionAndExpectsItsFinalRepliesAfterTheGreeting() {
        LoadProtocol p = LoadProtocol.SMTP;
        assertEquals("EHLO load\r\nMAIL FROM:<c4@load.test>\r\nRCPT TO:<sink@load.test>\r\nDATA\r\nSubject: 1"
                + "\r\n\r\nxxxxxxxxxxxxxxxxxxxx\r\n.\r\n", request(p, 4, 1));
        assertEquals("MAIL FROM:<c4@load.test>\r\nRCPT TO:<sink@load.test>\r\nDATA\r\nSubject: 2"
                + "\r\n\r\nxxxxxxxxxxxxxxxxxxxx\r\n.\r\n", request(p, 4, 2));
        byte[] greeting = "220 localhost ESMTP".getBytes(StandardCharsets.ISO_8859_1);
        assertEquals(true, p.greeting(greeting, greeting.length));
        LoadProtocol.Parser parser = p.parser(24);
        assertEquals(LoadProtocol.MORE, line(parser, "220 localhost ESMTP", 4, 1));
        assertEquals(LoadProtocol.MORE, line(parser, "250-localhost greets load", 4, 1));
        assertEquals(LoadProtocol.MORE, line(parser, "250 8BITMIME", 4, 1));
        assertEquals(LoadProtocol.MORE, line(parser, "250 2.1.0 OK", 4, 1));
        assertEquals(LoadProtocol.MORE, line(parser, "250 2.1.5 OK", 4, 1));
        assertEquals(LoadProtocol.MORE, line(parser, "354 Start mail input", 4, 1));
        assertEquals(LoadProtocol.COMPLETE, line(parser, "250 2.0.0 OK queued as m1", 4, 1));
        assertEquals(LoadProtocol.MORE, line(parser, "250 2.1.0 OK", 4, 2));
        assertEquals(LoadProtocol.MISMATCH, line(parser, "452 4.5.3 Too many recipients", 4, 2));
    }
}
