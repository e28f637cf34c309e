package dev.flow.mina;

import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A child JVM's main: connects through {@code new FlowSocketFactory()} (the default connector) and returns
 * from {@code main} with the connection still open; the JVM must exit all the same.
 */
final class DefaultFactoryProcess {

    private DefaultFactoryProcess() {
    }

    public static void main(String[] args) throws Exception {
        ServerSocket server = new ServerSocket(0, 1, Pairs.LOOPBACK);
        Socket client = new FlowSocketFactory().createSocket(Pairs.LOOPBACK, server.getLocalPort());
        Socket peer = server.accept();
        client.getOutputStream().write("hi".getBytes(StandardCharsets.US_ASCII));
        InputStream in = peer.getInputStream();
        System.out.println("connected " + (char) in.read() + (char) in.read());
    }
}
