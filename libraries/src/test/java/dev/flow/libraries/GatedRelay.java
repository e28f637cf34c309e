package dev.flow.libraries;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A one-connection TCP relay on 127.0.0.1 that passes the client's bytes to a server at once and holds back
 * each chunk of the server's reply until a gate opens (polled every 200 µs, up to a deadline), so a test can
 * make a reply arrive only once the client is waiting for it. A gate that stays shut past the deadline is
 * recorded as a failure and the connection closed. Runs two daemon threads of its own.
 */
final class GatedRelay implements AutoCloseable {

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final BooleanSupplier gate;
    private final Duration deadline;
    private final AtomicInteger forwarded = new AtomicInteger();
    private final AtomicReference<String> failure = new AtomicReference<>();
    private volatile Socket client;
    private volatile Socket server;

    GatedRelay(InetSocketAddress target, BooleanSupplier gate, Duration deadline) throws IOException {
        this.target = target;
        this.gate = gate;
        this.deadline = deadline;
        this.listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::relay, "gated-relay");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    InetSocketAddress address() {
        // By its IP literal: a client that connects by host string (Commons Net's connect(String, int)) looks up
        // "localhost" otherwise, a name lookup, reported at its site and refused by a strict loader.
        return new InetSocketAddress(listener.getInetAddress().getHostAddress(), listener.getLocalPort());
    }

    /** Chunks of the server's reply passed on (or being passed on) to the client so far. */
    int forwarded() {
        return forwarded.get();
    }

    /** Why the relay gave up, or {@code null}. */
    String failure() {
        return failure.get();
    }

    private void relay() {
        try {
            client = listener.accept();
            server = new Socket(target.getAddress(), target.getPort());
            Thread upstream = new Thread(() -> copy(client, server), "gated-relay-up");
            upstream.setDaemon(true);
            upstream.start();
            InputStream in = server.getInputStream();
            OutputStream out = client.getOutputStream();
            byte[] chunk = new byte[8192];
            for (int n; (n = in.read(chunk)) != -1; ) {
                if (!awaitGate()) {
                    failure.compareAndSet(null, "the gate stayed shut for " + deadline + " before reply chunk "
                            + (forwarded.get() + 1) + ": " + new String(chunk, 0, n).trim());
                    break;
                }
                // Counted before it is written: the client may act on it (and the test read the count) first.
                forwarded.incrementAndGet();
                out.write(chunk, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            if (!listener.isClosed()) {
                failure.compareAndSet(null, e.toString());
            }
        } finally {
            close();
        }
    }

    private boolean awaitGate() {
        long end = System.nanoTime() + deadline.toNanos();
        while (!gate.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
        }
        return true;
    }

    private static void copy(Socket from, Socket to) {
        try {
            from.getInputStream().transferTo(to.getOutputStream());
            to.shutdownOutput();
        } catch (IOException e) {
            // the other direction closes both sockets; nothing is left to pass on
        }
    }

    @Override
    public void close() {
        for (AutoCloseable c : new AutoCloseable[] {listener, client, server}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // closing a relay socket twice or after a reset is not an error here
            }
        }
    }
}
