package flowtest.conformance.network;

import flowtest.support.JdkPeer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.Callable;

/** {@code new Socket(String, int, InetAddress, int)} (a literal host) connects inside the JDK's constructor: reported. */
public final class SocketConstructorByHostConnects implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (ServerSocket server = JdkPeer.listen();
                Socket socket = new Socket("127.0.0.1", server.getLocalPort(), InetAddress.getLoopbackAddress(), 0)) {
            return "connected " + socket.isConnected();
        }
    }
}
