package flowtest.conformance.network;

import flowtest.support.JdkPeer;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.Callable;
import javax.net.SocketFactory;

/** {@code createSocket(host, port)} of the JDK's default socket factory connects a plain JDK socket inside the JDK: reported. */
public final class JdkSocketFactoryConnects implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (ServerSocket server = JdkPeer.listen();
                Socket socket = SocketFactory.getDefault().createSocket(server.getInetAddress(), server.getLocalPort())) {
            return "connected " + socket.isConnected();
        }
    }
}
