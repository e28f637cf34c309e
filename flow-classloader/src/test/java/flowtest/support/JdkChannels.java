package flowtest.support;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * Test support outside the instrumented scope: plain JDK channels on 127.0.0.1 (free ports) made and
 * connected here, and a one-context JDK HTTP server, for the cases that use them in the scope. Stateless.
 */
public final class JdkChannels {

    private JdkChannels() {
    }

    /** A blocking server socket channel bound to 127.0.0.1, a free port. */
    public static ServerSocketChannel listen() throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
        return server;
    }

    /** A blocking socket channel connected to {@code server} (the connection waits in its backlog). */
    public static SocketChannel connect(ServerSocketChannel server) throws IOException {
        return SocketChannel.open(server.getLocalAddress());
    }

    /** Accepts a connection of {@code server} here (blocking). */
    public static SocketChannel accept(ServerSocketChannel server) throws IOException {
        return server.accept();
    }

    /** Writes {@code bytes} to {@code channel} here, all of them. */
    public static void write(SocketChannel channel, byte[] bytes) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
            channel.write(b);
        }
    }

    /** A datagram channel bound to 127.0.0.1, a free port (blocking). */
    public static DatagramChannel datagram() throws IOException {
        return DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    /** Sends {@code bytes} from {@code from} to {@code to}'s address here. */
    public static void send(DatagramChannel from, DatagramChannel to, byte[] bytes) throws IOException {
        from.send(ByteBuffer.wrap(bytes), to.getLocalAddress());
    }

    /**
     * A JDK HTTP server on 127.0.0.1, a free port, that answers every request with {@code body} (status
     * 200); stop it with {@code stop(0)}.
     */
    public static HttpServer http(String body) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
        return server;
    }

    /** The body stream of {@code c}, which is connected here (outside the scope). */
    public static java.io.InputStream body(java.net.URLConnection c) throws IOException {
        return c.getInputStream();
    }

    /**
     * A {@code jar:file:} URL of the one entry {@code hello.txt} (5 bytes) of a jar written here to a temporary
     * file, deleted when the JVM exits.
     */
    public static URL jarEntry() throws IOException {
        java.nio.file.Path jar = java.nio.file.Files.createTempFile("flowtest", ".jar");
        jar.toFile().deleteOnExit();
        try (java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(java.nio.file.Files.newOutputStream(jar))) {
            out.putNextEntry(new java.util.jar.JarEntry("hello.txt"));
            out.write("hello".getBytes(StandardCharsets.US_ASCII));
        }
        return new URL("jar:" + jar.toUri() + "!/hello.txt");
    }

    /** The URL of {@code server}'s root, by its IP literal (no name lookup). */
    public static URL url(HttpServer server) throws IOException {
        return java.net.URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/").toURL();
    }
}
