package dev.flow.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.flow.LineTerminator;
import dev.flow.TransportConfig;
import dev.flow.spi.AsyncTransport;
import dev.flow.spi.Awaitable;
import dev.flow.spi.InputBuffer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The read loops of {@link Awaits} against a transport whose input ends at the worst moment:
 * right after a poll found no complete line (the CI failure of
 * {@code TcpMinaTransportOneByteAtATimeTest.readLineUsesTheConfiguredTerminator}).
 */
class AwaitsEndOfStreamRaceTest {

    @Test
    void readLineReturnsTheUnterminatedRestWhenInputEndsJustAfterAPollFoundNoLine() throws IOException {
        EndsAfterFirstPoll t = new EndsAfterFirstPoll("z\n");
        assertEquals("z\n", Awaits.readLine(t, LineTerminator.CRLF, 100, false));
        assertNull(Awaits.readLine(t, LineTerminator.CRLF, 100, false));
    }

    /** Buffers {@code content}; the end of stream arrives during the first {@code pollLine}, after it looked. */
    private static final class EndsAfterFirstPoll implements AsyncTransport {
        private final InputBuffer in = new InputBuffer(StandardCharsets.UTF_8, false, "test");
        private boolean eof;

        EndsAfterFirstPoll(String content) {
            byte[] b = content.getBytes(StandardCharsets.UTF_8);
            in.append(b, 0, b.length);
        }

        @Override
        public String pollLine(LineTerminator terminator, int maxLength) throws IOException {
            boolean ended = eof;
            String line = in.pollLine(terminator, maxLength, ended);
            eof = true;
            return line;
        }

        @Override
        public int pollRead(byte[] dst, int off, int len) throws IOException {
            int n = in.read(dst, off, len);
            return n == 0 && eof ? -1 : n;
        }

        @Override
        public boolean isInputClosed() {
            return eof;
        }

        @Override
        public Awaitable inputReady() {
            if (!eof) {
                throw new AssertionError("would wait for ever: no input will arrive");
            }
            return new Awaitable() {
                @Override
                public boolean isDone() {
                    return true;
                }

                @Override
                public void whenDone(Runnable action) {
                    action.run();
                }
            };
        }

        @Override
        public Awaitable writeLineAsync(String line) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Awaitable writeAsync(byte[] src, int off, int len) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Awaitable flushAsync() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void checkWrite(Awaitable write) {
        }

        @Override
        public String readLine() {
            throw new UnsupportedOperationException();
        }

        @Override
        public String readLine(LineTerminator terminator, int maxLength) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int read(byte[] dst, int off, int len) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void writeLine(String line) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void write(byte[] src, int off, int len) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }

        @Override
        public SocketAddress remoteAddress() {
            return InetSocketAddress.createUnresolved("test", 1);
        }

        @Override
        public TransportConfig config() {
            return TransportConfig.DEFAULT;
        }
    }
}
