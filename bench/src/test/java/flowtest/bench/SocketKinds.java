package flowtest.bench;

import java.net.Socket;
import java.util.concurrent.Callable;
import javax.net.SocketFactory;

/** The classes of a socket this code allocates and of the default socket factory it is given. */
public class SocketKinds implements Callable<String> {
    @Override
    public String call() throws Exception {
        try (Socket s = new Socket()) {
            return s.getClass().getName() + " " + SocketFactory.getDefault().getClass().getName();
        }
    }
}
