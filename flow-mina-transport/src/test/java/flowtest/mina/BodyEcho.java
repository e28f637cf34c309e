package flowtest.mina;

import dev.flow.Transport;
import java.util.concurrent.Callable;

/**
 * Echoes length-prefixed bodies on a keep-alive connection, in plain blocking style: a line with the
 * length, then the body; the reply is the same. Closes the transport when the peer ends.
 */
public class BodyEcho implements Callable<Integer> {
    private final Transport transport;

    public BodyEcho(Transport transport) {
        this.transport = transport;
    }

    @Override
    public Integer call() throws Exception {
        int echoed = 0;
        try {
            String line;
            while ((line = transport.readLine()) != null) {
                byte[] body = transport.readFully(Integer.parseInt(line));
                transport.writeLine(line);
                transport.write(body);
                transport.flush();
                echoed++;
            }
        } finally {
            transport.close();
        }
        return echoed;
    }
}
