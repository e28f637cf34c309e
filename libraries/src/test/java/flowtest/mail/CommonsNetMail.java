package flowtest.mail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import javax.net.SocketFactory;
import org.apache.commons.net.pop3.POP3Client;
import org.apache.commons.net.pop3.POP3MessageInfo;
import org.apache.commons.net.smtp.SMTPClient;

/**
 * Commons Net's {@link SMTPClient} sends a message with dot-stuffed lines to the mailbox {@code id@example.org},
 * then (unless {@code pop3} is {@code null}) its {@link POP3Client} logs in as that mailbox, lists, retrieves and
 * deletes it; both clients take their sockets from {@code setSocketFactory(factory)}. Returns the reply codes
 * and what was read back.
 */
public class CommonsNetMail implements Callable<String> {

    /** The body sent: lines that start with a dot are stuffed by the client and unstuffed by the reader. */
    public static final List<String> BODY = List.of("Grüße aus Köln", ".a line that starts with a dot", "..two dots",
            ".", "", "end");

    private final SocketFactory factory;
    private final InetSocketAddress smtp;
    private final InetSocketAddress pop3;
    private final String id;

    public CommonsNetMail(SocketFactory factory, InetSocketAddress smtp, InetSocketAddress pop3, String id) {
        this.factory = factory;
        this.smtp = smtp;
        this.pop3 = pop3;
        this.id = id;
    }

    @Override
    public String call() throws IOException {
        String mailbox = id + "@example.org";
        StringBuilder log = new StringBuilder("smtp:");
        SMTPClient client = new SMTPClient("UTF-8");
        client.setSocketFactory(factory);
        client.setDefaultTimeout(10_000);
        client.connect(smtp.getHostString(), smtp.getPort());
        try {
            client.setSoTimeout(10_000);
            log.append(' ').append(client.getReplyCode());
            log.append(' ').append(client.login("flow.test")).append(client.setSender("sender@example.org"))
                    .append(client.addRecipient(mailbox));
            try (Writer w = client.sendMessageData()) {
                w.write("From: sender@example.org\r\nTo: " + mailbox + "\r\nSubject: hello " + id + "\r\n"
                        + "Content-Type: text/plain; charset=UTF-8\r\n\r\n" + String.join("\r\n", BODY) + "\r\n");
            }
            log.append(' ').append(client.completePendingCommand()).append(client.getReplyCode());
            log.append(' ').append(client.logout());
        } finally {
            client.disconnect();
        }
        if (pop3 == null) {
            return log.toString();
        }
        log.append(" pop3:");
        POP3Client reader = new POP3Client();
        reader.setSocketFactory(factory);
        reader.setDefaultTimeout(10_000);
        reader.connect(pop3.getHostString(), pop3.getPort());
        try {
            reader.setSoTimeout(10_000);
            log.append(' ').append(reader.login(mailbox, mailbox));
            POP3MessageInfo status = reader.status();
            log.append(" status ").append(status.number).append(status.size > 0);
            POP3MessageInfo[] listed = reader.listMessages();
            log.append(" listed ").append(listed.length).append(' ').append(listed[0].number);
            List<String> headers = new ArrayList<>();
            List<String> body = new ArrayList<>();
            try (BufferedReader message = (BufferedReader) reader.retrieveMessage(listed[0].number)) {
                List<String> into = headers;
                for (String latin1 = message.readLine(); latin1 != null; latin1 = message.readLine()) {
                    // POP3Client decodes ISO-8859-1; the message was sent as UTF-8.
                    String line = new String(latin1.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
                    if (into == headers && line.isEmpty()) {
                        into = body;
                    } else {
                        into.add(line);
                    }
                }
            }
            log.append(" subject ").append(headers.contains("Subject: hello " + id));
            log.append(" body ").append(body.equals(BODY) ? "same" : body.toString());
            log.append(" deleted ").append(reader.deleteMessage(listed[0].number));
            log.append(' ').append(reader.logout());
        } finally {
            reader.disconnect();
        }
        return log.toString();
    }
}
