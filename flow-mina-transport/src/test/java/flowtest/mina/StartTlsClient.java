package flowtest.mina;

import dev.flow.Connector;
import dev.flow.TlsUpgrade;
import dev.flow.Transport;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import javax.net.ssl.SSLSession;

/**
 * Client side of a STARTTLS exchange: connects, sends "STARTTLS", reads the server's go-ahead, upgrades
 * with the given settings, sends each line inside TLS and reads its echo, says quit. Returns what it
 * saw: the go-ahead, "tls PROTOCOL same-session", each echo, the answer to quit and what came after it.
 */
public class StartTlsClient implements Callable<List<String>> {
    private final Connector connector;
    private final TlsUpgrade upgrade;
    private final List<String> lines;

    public StartTlsClient(Connector connector, TlsUpgrade upgrade, List<String> lines) {
        this.connector = connector;
        this.upgrade = upgrade;
        this.lines = lines;
    }

    @Override
    public List<String> call() throws IOException {
        List<String> seen = new ArrayList<>();
        try (Transport t = connector.connect()) {
            t.writeLine("STARTTLS");
            seen.add(t.readLine());
            SSLSession s = t.startTls(upgrade);
            seen.add("tls " + s.getProtocol() + " " + (t.tlsSession() == s));
            for (String line : lines) {
                t.writeLine(line);
                seen.add(t.readLine());
            }
            t.writeLine("quit");
            seen.add(t.readLine());
            seen.add(String.valueOf(t.readLine()));
        }
        return seen;
    }
}
