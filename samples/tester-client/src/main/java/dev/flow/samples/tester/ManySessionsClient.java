package dev.flow.samples.tester;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;

/**
 * The client half of {@link ManySessions}, run in its own JVM: opens N connections on one thread with
 * NIO, keeps all of them open, sends one line on each once all are connected, checks every echo,
 * then closes them all. Prints one result line; exits non-zero on failure or after its time limit.
 */
public final class ManySessionsClient {

    /** Connection attempts in flight at once, so that the server's accept queue never overflows. */
    private static final int MAX_CONNECTING = 256;

    private ManySessionsClient() {
    }

    /** Arguments: host port connections timeoutSeconds. */
    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        int n = Integer.parseInt(args[2]);
        long deadline = System.nanoTime() + Long.parseLong(args[3]) * 1_000_000_000L;
        Selector selector = Selector.open();
        SocketChannel[] channels = new SocketChannel[n];
        int connected = 0;
        try {
            for (int i = 0; i < n; i++) {
                while (i - connected >= MAX_CONNECTING) {
                    check(deadline, "connected " + connected + " of " + n);
                    connected += pump(selector, 10);
                }
                SocketChannel ch = SocketChannel.open();
                ch.configureBlocking(false);
                ch.connect(new InetSocketAddress(host, port));
                channels[i] = ch;
                ch.register(selector, SelectionKey.OP_CONNECT, i);
                connected += pump(selector, 0);
            }
            while (connected < n) {
                check(deadline, "connected " + connected + " of " + n);
                connected += pump(selector, 100);
            }
            System.err.println("clients: " + n + " connections open");
            ByteBuffer[] in = new ByteBuffer[n];
            for (int i = 0; i < n; i++) {
                channels[i].write(ByteBuffer.wrap(("session " + i + "\n").getBytes(StandardCharsets.US_ASCII)));
                in[i] = ByteBuffer.allocate(64);
                channels[i].keyFor(selector).interestOps(SelectionKey.OP_READ);
            }
            int echoed = 0;
            while (echoed < n) {
                check(deadline, "echoes " + echoed + " of " + n);
                selector.select(100);
                Iterator<SelectionKey> it = selector.selectedKeys().iterator();
                while (it.hasNext()) {
                    SelectionKey k = it.next();
                    it.remove();
                    int i = (Integer) k.attachment();
                    SocketChannel ch = (SocketChannel) k.channel();
                    if (ch.read(in[i]) < 0) {
                        throw new IOException("session " + i + ": closed by the server before its echo");
                    }
                    String got = new String(in[i].array(), 0, in[i].position(), StandardCharsets.US_ASCII);
                    if (got.endsWith("\n")) {
                        if (!got.equals("session " + i + "\n")) {
                            throw new IOException("session " + i + ": echo " + got.trim() + " (expected: session " + i + ")");
                        }
                        k.interestOps(0);
                        echoed++;
                    }
                }
            }
            System.out.println("RESULT connections=" + n + " echoed=" + echoed);
        } finally {
            for (SocketChannel ch : channels) {
                if (ch != null) {
                    ch.close();
                }
            }
            selector.close();
        }
    }

    private static int pump(Selector selector, long timeoutMs) throws IOException {
        int done = 0;
        if (timeoutMs == 0) {
            selector.selectNow();
        } else {
            selector.select(timeoutMs);
        }
        Iterator<SelectionKey> it = selector.selectedKeys().iterator();
        while (it.hasNext()) {
            SelectionKey k = it.next();
            it.remove();
            if (k.isConnectable() && ((SocketChannel) k.channel()).finishConnect()) {
                k.interestOps(0);
                done++;
            }
        }
        return done;
    }

    private static void check(long deadline, String progress) {
        if (System.nanoTime() > deadline) {
            System.err.println("clients: time limit reached: " + progress);
            System.exit(3);
        }
    }
}
