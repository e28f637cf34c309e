package flowtest.mina;

import dev.flow.TlsUpgrade;
import dev.flow.Transport;
import java.io.IOException;
import java.util.Queue;
import java.util.concurrent.Callable;
import javax.net.ssl.SSLSession;

/**
 * Server side of a STARTTLS exchange: echoes lines; on "STARTTLS" upgrades with the given settings (whose
 * go-ahead the client waits for) and answers "secured PROTOCOL"; "STARTTLS" again tries a second upgrade;
 * "quit" ends. Reports each upgrade's outcome and how the session ended.
 */
public class StartTlsEcho implements Callable<String> {
    private final Transport transport;
    private final TlsUpgrade upgrade;
    private final Queue<String> outcomes;

    public StartTlsEcho(Transport transport, TlsUpgrade upgrade, Queue<String> outcomes) {
        this.transport = transport;
        this.upgrade = upgrade;
        this.outcomes = outcomes;
    }

    @Override
    public String call() throws IOException {
        String line;
        while ((line = transport.readLine()) != null) {
            if (line.equals("quit")) {
                transport.writeLine("bye");
                outcomes.add("quit");
                return "quit";
            }
            if (!line.equals("STARTTLS")) {
                transport.writeLine(line);
                continue;
            }
            try {
                SSLSession s = transport.startTls(upgrade);
                outcomes.add("secured " + s.getProtocol());
                transport.writeLine("secured " + s.getProtocol() + " " + (transport.tlsSession() == s));
            } catch (RuntimeException e) {
                outcomes.add(e.getClass().getSimpleName() + ": " + e.getMessage());
                transport.writeLine("454 " + e.getClass().getSimpleName());
            } catch (IOException e) {
                outcomes.add(e.getClass().getSimpleName() + ": " + e.getMessage());
                try {
                    // Rejected input leaves the transport plain and usable; a failed handshake closed it.
                    transport.writeLine("554 " + e.getClass().getSimpleName());
                } catch (IOException closed) {
                    return "failed";
                }
            }
        }
        outcomes.add("eof");
        return "eof";
    }
}
