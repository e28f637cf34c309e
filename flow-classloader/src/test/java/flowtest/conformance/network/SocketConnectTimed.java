package flowtest.conformance.network;

import flowtest.support.JdkPeer;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.Callable;

/** {@code Socket.connect(SocketAddress, int)} of a plain JDK socket: it waits inside the JDK, reported. */
public final class SocketConnectTimed implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (ServerSocket server = JdkPeer.listen(); Socket socket = new Socket()) {
            socket.connect(server.getLocalSocketAddress(), 5000);
            return "connected " + socket.isConnected();
        }
    }
}
