package flowtest.mail;

import java.io.IOException;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import javax.net.SocketFactory;
import javax.net.ssl.SSLContext;
import org.apache.commons.net.smtp.SMTPSClient;

/**
 * Commons Net's {@link SMTPSClient} in explicit mode: a plain conversation, {@code STARTTLS} ({@code execTLS()},
 * which layers TLS over the plain socket itself), then a message sent inside TLS. Returns the replies.
 */
public class StartTlsCommonsNet implements Callable<String> {

    private final SocketFactory factory;
    private final SSLContext tls;
    private final InetSocketAddress smtp;
    private final String id;

    public StartTlsCommonsNet(SocketFactory factory, SSLContext tls, InetSocketAddress smtp, String id) {
        this.factory = factory;
        this.tls = tls;
        this.smtp = smtp;
        this.id = id;
    }

    @Override
    public String call() throws IOException {
        SMTPSClient client = new SMTPSClient(false, tls);
        client.setSocketFactory(factory);
        client.setDefaultTimeout(10_000);
        client.connect(smtp.getHostString(), smtp.getPort());
        try {
            StringBuilder log = new StringBuilder().append(client.getReplyCode());
            log.append(' ').append(client.login("flow.test"));
            log.append(' ').append(client.execTLS());
            log.append(' ').append(client.login("flow.test"));
            log.append(' ').append(client.setSender("sender@flow.test"));
            log.append(' ').append(client.addRecipient("rcpt-" + id + "@flow.test"));
            Writer w = client.sendMessageData();
            w.write("Subject: over STARTTLS\r\n\r\nbody of " + id + "\r\n.leading dot\r\n");
            w.close();
            log.append(' ').append(client.completePendingCommand());
            log.append(' ').append(client.logout());
            return log.toString();
        } finally {
            client.disconnect();
        }
    }
}
