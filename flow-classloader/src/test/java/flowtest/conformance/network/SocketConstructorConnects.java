package flowtest.conformance.network;

import flowtest.support.JdkPeer;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.Callable;

/** {@code new Socket(InetAddress, int)} connects inside the JDK's constructor: reported. */
public final class SocketConstructorConnects implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (ServerSocket server = JdkPeer.listen();
                Socket socket = new Socket(server.getInetAddress(), server.getLocalPort())) {
            return "connected " + socket.isConnected();
        }
    }
}
