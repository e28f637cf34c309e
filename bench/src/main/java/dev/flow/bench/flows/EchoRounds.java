package dev.flow.bench.flows;

import dev.flow.Transport;
import java.io.IOException;
import java.util.concurrent.Callable;

/** Plain blocking code: {@code rounds} line round trips over one transport. */
public class EchoRounds implements Callable<Object> {
    private final Transport transport;
    private final int rounds;

    public EchoRounds(Transport transport, int rounds) {
        this.transport = transport;
        this.rounds = rounds;
    }

    @Override
    public Object call() throws IOException {
        for (int i = 0; i < rounds; i++) {
            transport.writeLine("ping");
            String echo = transport.readLine();
            if (!"ping".equals(echo)) {
                throw new IOException("echo: " + echo + " (expected: ping)");
            }
        }
        return null;
    }
}
