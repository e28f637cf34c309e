package flowtest.mail;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import javax.net.SocketFactory;
import javax.net.ssl.SSLContext;
import org.apache.commons.net.smtp.SMTPSClient;

/**
 * Commons Net's {@link SMTPSClient} in implicit-TLS mode over a socket of {@code factory}: the library layers
 * the JDK's TLS on the plain socket itself ({@code SSLSocketFactory.createSocket(socket, host, port, false)},
 * then {@code startHandshake()}). Returns the greeting's code and whether the login and logout succeeded.
 */
public class LayeredTls implements Callable<String> {

    private final SocketFactory factory;
    private final SSLContext tls;
    private final InetSocketAddress smtps;

    public LayeredTls(SocketFactory factory, SSLContext tls, InetSocketAddress smtps) {
        this.factory = factory;
        this.tls = tls;
        this.smtps = smtps;
    }

    @Override
    public String call() throws IOException {
        SMTPSClient client = new SMTPSClient(true, tls);
        client.setSocketFactory(factory);
        client.setDefaultTimeout(10_000);
        client.connect(smtps.getHostString(), smtps.getPort());
        try {
            return client.getReplyCode() + " " + client.login("flow.test") + " " + client.logout();
        } finally {
            client.disconnect();
        }
    }
}
