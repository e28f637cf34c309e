package flowtest.mina;

import java.net.Socket;
import java.util.concurrent.Callable;

/**
 * Unconnected sockets made where a flow cannot suspend: in a constructor (through a method it calls) and in a static
 * initializer, both run by {@link #call()}. Returns their classes' names and whether they are connected.
 */
public class SocketHolder implements Callable<String> {

    static final class Holder {
        static final Socket STATIC = new Socket();

        private final Socket socket = make();

        private static Socket make() {
            return new Socket();
        }
    }

    @Override
    public String call() throws Exception {
        Holder h = new Holder();
        try (Socket a = h.socket; Socket b = Holder.STATIC) {
            return a.getClass().getSimpleName() + " " + b.getClass().getSimpleName() + " " + a.isConnected();
        }
    }
}
