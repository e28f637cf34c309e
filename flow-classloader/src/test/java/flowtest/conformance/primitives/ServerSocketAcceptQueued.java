package flowtest.conformance.primitives;

import flowtest.support.JdkPeer;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.Callable;

/** {@code ServerSocket.accept} of a connection already queued: accept waits inside the JDK, reported whether or not it would wait. */
public final class ServerSocketAcceptQueued implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (ServerSocket server = JdkPeer.listen(); Socket client = JdkPeer.connect(server); Socket accepted = server.accept()) {
            return "accepted from " + (accepted.getPort() == client.getLocalPort());
        }
    }
}
