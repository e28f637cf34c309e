package flowtest.mina;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import javax.net.SocketFactory;

/**
 * A socket factory that hands every call to {@code SocketFactory.getDefault()}, as code without a factory of its
 * own does (pgjdbc's and Commons Net's defaults): loaded normally the JDK's sockets; loaded through the loader
 * (with Flow's MINA transport on the class path) Flow's.
 */
public class DefaultFactorySockets extends SocketFactory {

    @Override
    public Socket createSocket() throws IOException {
        return SocketFactory.getDefault().createSocket();
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return SocketFactory.getDefault().createSocket(host, port);
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return SocketFactory.getDefault().createSocket(host, port);
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return SocketFactory.getDefault().createSocket(host, port, localHost, localPort);
    }

    @Override
    public Socket createSocket(InetAddress host, int port, InetAddress localHost, int localPort) throws IOException {
        return SocketFactory.getDefault().createSocket(host, port, localHost, localPort);
    }
}
