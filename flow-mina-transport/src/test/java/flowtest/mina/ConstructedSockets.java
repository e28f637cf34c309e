package flowtest.mina;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import javax.net.SocketFactory;

/**
 * A socket factory that makes its sockets with {@code java.net.Socket}'s own constructors, as existing code does
 * without a factory: loaded normally it gives the JDK's sockets; loaded through the loader (with Flow's MINA
 * transport on the class path) Flow's.
 */
public class ConstructedSockets extends SocketFactory {

    @Override
    public Socket createSocket() {
        return new Socket();
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return new Socket(host, port);
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return new Socket(host, port);
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return new Socket(host, port, localHost, localPort);
    }

    @Override
    public Socket createSocket(InetAddress host, int port, InetAddress localHost, int localPort) throws IOException {
        return new Socket(host, port, localHost, localPort);
    }
}
