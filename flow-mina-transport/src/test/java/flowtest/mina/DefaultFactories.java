package flowtest.mina;

import java.util.concurrent.Callable;
import javax.net.SocketFactory;
import javax.net.ssl.SSLSocketFactory;

/**
 * What {@code SocketFactory.getDefault()} gives, here and in a static initializer, and whether {@code
 * SSLSocketFactory.getDefault()} gives a TLS factory, and Flow's.
 */
public class DefaultFactories implements Callable<String> {

    static final class Holder {
        static final SocketFactory STATIC = SocketFactory.getDefault();
    }

    @Override
    public String call() {
        SocketFactory tls = SSLSocketFactory.getDefault();
        return SocketFactory.getDefault().getClass().getSimpleName() + " " + Holder.STATIC.getClass().getSimpleName()
                + " " + (tls instanceof SSLSocketFactory) + " " + tls.getClass().getName().startsWith("dev.flow");
    }
}
