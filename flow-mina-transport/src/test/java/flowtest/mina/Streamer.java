package flowtest.mina;

import dev.flow.Transport;
import java.util.Arrays;
import java.util.concurrent.Callable;

/** Streams 16 KiB chunks until the write fails (the peer goes away), in plain blocking style. */
public class Streamer implements Callable<Long> {
    private final Transport transport;

    public Streamer(Transport transport) {
        this.transport = transport;
    }

    @Override
    public Long call() throws Exception {
        byte[] chunk = new byte[16 * 1024];
        Arrays.fill(chunk, (byte) 's');
        long sent = 0;
        while (true) {
            transport.write(chunk);
            sent += chunk.length;
        }
    }
}
