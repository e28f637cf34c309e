package dev.flow.samples.smtp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Many concurrent SMTP sessions from one thread (NIO), each: greeting, EHLO, then {@code messages} times
 * MAIL, RCPT, DATA (pipelined, RFC 2920), the body after the {@code 354}, then QUIT. Every reply is
 * checked; a wrong reply, a close or the time limit is a failure of that session. Run as its own process
 * by the tests (one socket per session):
 * {@code SmtpLoadClient PORT SESSIONS MESSAGES SECONDS} prints {@code sessions=N messages=M failures=F
 * ms=T} and exits 0 only without failures. Not thread-safe.
 */
public final class SmtpLoadClient {

    private static final int GREETING = 0;
    private static final int EHLO = 1;
    private static final int MAIL = 2;
    private static final int RCPT = 3;
    private static final int DATA = 4;
    private static final int BODY = 5;
    private static final int QUIT = 6;

    private final int messages;
    private long delivered;
    private final List<String> failures = new ArrayList<>();

    private SmtpLoadClient(int messages) {
        this.messages = messages;
    }

    /** Runs the sessions; see the class comment. */
    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[0]);
        int sessions = Integer.parseInt(args[1]);
        int messages = Integer.parseInt(args[2]);
        long limit = TimeUnit.SECONDS.toNanos(Integer.parseInt(args[3]));
        long t0 = System.nanoTime();
        SmtpLoadClient c = new SmtpLoadClient(messages);
        int open = c.run(new InetSocketAddress("127.0.0.1", port), sessions, t0 + limit);
        int failed = c.failures.size() + open;
        System.out.println("sessions=" + sessions + " messages=" + c.delivered + " failures=" + failed + " ms="
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)
                + (c.failures.isEmpty() ? "" : " first=" + c.failures.get(0)) + (open > 0 ? " unfinished=" + open : ""));
        System.out.flush();
        System.exit(failed == 0 && c.delivered == (long) sessions * messages ? 0 : 1);
    }

    /** Runs every session; returns how many had not ended by the deadline. */
    private int run(InetSocketAddress server, int sessions, long deadline) throws IOException {
        try (Selector selector = Selector.open()) {
            for (int i = 0; i < sessions; i++) {
                SocketChannel ch = SocketChannel.open();
                ch.configureBlocking(false);
                ch.connect(server);
                ch.register(selector, SelectionKey.OP_CONNECT, new Conn(i));
            }
            int open = sessions;
            while (open > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return open;
                }
                selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                for (var it = selector.selectedKeys().iterator(); it.hasNext(); ) {
                    SelectionKey k = it.next();
                    it.remove();
                    Conn c = (Conn) k.attachment();
                    try {
                        if (!c.step(k)) {
                            open--;
                            k.channel().close();
                        }
                    } catch (IOException e) {
                        failures.add("session " + c.id + ": " + e);
                        open--;
                        k.channel().close();
                    }
                }
            }
            return 0;
        }
    }

    /** One session's state. */
    private final class Conn {
        final int id;
        final ByteBuffer in = ByteBuffer.allocate(4096);
        ByteBuffer out;
        int state = GREETING;
        int sent;

        Conn(int id) {
            this.id = id;
        }

        /** Handles a ready key; returns false when the session is over (done or failed). */
        boolean step(SelectionKey k) throws IOException {
            SocketChannel ch = (SocketChannel) k.channel();
            if (k.isConnectable()) {
                ch.finishConnect();
                k.interestOps(SelectionKey.OP_READ);
                return true;
            }
            if (k.isWritable()) {
                ch.write(out);
                if (!out.hasRemaining()) {
                    k.interestOps(SelectionKey.OP_READ);
                }
                return true;
            }
            if (ch.read(in) < 0) {
                failures.add("session " + id + ": closed by the server in state " + state);
                return false;
            }
            in.flip();
            int start = in.position();
            for (int i = in.position(); i < in.limit(); i++) {
                if (in.get(i) != '\n') {
                    continue;
                }
                String line = new String(in.array(), start, i - start, StandardCharsets.ISO_8859_1).strip();
                start = i + 1;
                if (line.length() >= 4 && line.charAt(3) == '-') {
                    continue;
                }
                if (!reply(k, line)) {
                    return false;
                }
                if (state > QUIT) {
                    return false;
                }
            }
            in.position(start);
            in.compact();
            return true;
        }

        /** Checks one final reply line and sends what comes next; false on a wrong reply. */
        private boolean reply(SelectionKey k, String line) throws IOException {
            String expected = state == GREETING ? "220" : state == DATA ? "354" : state == QUIT ? "221" : "250";
            if (!line.startsWith(expected + " ")) {
                failures.add("session " + id + ": expected " + expected + " in state " + state + ", got: " + line);
                return false;
            }
            switch (state) {
                case GREETING:
                    send(k, "EHLO load" + id + "\r\n");
                    state = EHLO;
                    break;
                case EHLO:
                    sendTransaction(k);
                    break;
                case MAIL:
                case RCPT:
                    state++;
                    break;
                case DATA:
                    send(k, "Subject: " + id + "-" + sent + "\r\n\r\nmessage " + sent + " of session " + id
                            + "\r\n..stuffed\r\n.\r\n");
                    state = BODY;
                    break;
                case BODY:
                    delivered++;
                    sent++;
                    if (sent < messages) {
                        sendTransaction(k);
                    } else {
                        send(k, "QUIT\r\n");
                        state = QUIT;
                    }
                    break;
                default:
                    state = QUIT + 1;
            }
            return true;
        }

        private void sendTransaction(SelectionKey k) throws IOException {
            send(k, "MAIL FROM:<s" + id + "@load.test>\r\nRCPT TO:<sink@load.test>\r\nDATA\r\n");
            state = MAIL;
        }

        private void send(SelectionKey k, String text) throws IOException {
            out = ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1));
            ((SocketChannel) k.channel()).write(out);
            if (out.hasRemaining()) {
                k.interestOps(SelectionKey.OP_WRITE);
            }
        }
    }
}
