package flowtest.mail;

import jakarta.mail.Folder;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Store;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Properties;
import java.util.concurrent.Callable;

/**
 * Jakarta Mail (Eclipse Angus) sends a message over SMTP to the mailbox {@code id@example.org} and (unless
 * {@code pop3} is {@code null}) reads it back over POP3, its sockets made by the socket factory class named in
 * the session's properties ({@code mail.smtp.socketFactory.class}, {@code mail.pop3.socketFactory.class}, no
 * fall-back to plain sockets). Returns what the transport and the store saw.
 */
public class JakartaMail implements Callable<String> {

    private final String factoryClass;
    private final InetSocketAddress smtp;
    private final InetSocketAddress pop3;
    private final String id;

    public JakartaMail(String factoryClass, InetSocketAddress smtp, InetSocketAddress pop3, String id) {
        this.factoryClass = factoryClass;
        this.smtp = smtp;
        this.pop3 = pop3;
        this.id = id;
    }

    /** The session's properties for {@code protocol} ("smtp", "pop3") at {@code address}. */
    static void put(Properties p, String protocol, InetSocketAddress address, String factoryClass) {
        String prefix = "mail." + protocol + ".";
        p.put(prefix + "host", address.getHostString());
        p.put(prefix + "port", String.valueOf(address.getPort()));
        p.put(prefix + "connectiontimeout", "10000");
        p.put(prefix + "timeout", "10000");
        p.put(prefix + "socketFactory.class", factoryClass);
        p.put(prefix + "socketFactory.fallback", "false");
    }

    @Override
    public String call() throws MessagingException, IOException {
        String mailbox = id + "@example.org";
        Properties p = new Properties();
        put(p, "smtp", smtp, factoryClass);
        if (pop3 != null) {
            put(p, "pop3", pop3, factoryClass);
        }
        Session session = Session.getInstance(p);
        MimeMessage m = new MimeMessage(session);
        m.setFrom(new InternetAddress("sender@example.org"));
        m.setRecipients(Message.RecipientType.TO, mailbox);
        m.setSubject("hello " + id, "UTF-8");
        m.setText(String.join("\r\n", CommonsNetMail.BODY) + "\r\n", "UTF-8");
        StringBuilder log = new StringBuilder("smtp:");
        try (Transport t = session.getTransport("smtp")) {
            t.connect();
            t.sendMessage(m, m.getAllRecipients());
            log.append(' ').append(t.isConnected());
        }
        if (pop3 == null) {
            return log.toString();
        }
        log.append(" pop3:");
        try (Store store = session.getStore("pop3")) {
            store.connect(mailbox, mailbox);
            Folder inbox = store.getFolder("INBOX");
            inbox.open(Folder.READ_WRITE);
            try {
                log.append(" count ").append(inbox.getMessageCount());
                Message read = inbox.getMessage(1);
                log.append(" subject ").append(read.getSubject().equals("hello " + id));
                Object content = read.getContent();
                log.append(" body ").append(content.equals(String.join("\r\n", CommonsNetMail.BODY) + "\r\n")
                        ? "same" : content.toString());
                read.setFlag(jakarta.mail.Flags.Flag.DELETED, true);
            } finally {
                inbox.close(true);
            }
        }
        return log.toString();
    }
}
