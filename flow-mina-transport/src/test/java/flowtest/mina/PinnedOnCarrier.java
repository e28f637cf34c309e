package flowtest.mina;

import dev.flow.Transport;
import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * Server side: after its first line, waits for {@code never} while holding a monitor, so the wait
 * cannot suspend (a pinned wait); answers "unreachable" if it ever returns.
 */
public class PinnedOnCarrier implements Callable<String> {
    private final Transport transport;
    private final CompletableFuture<String> never;

    public PinnedOnCarrier(Transport transport, CompletableFuture<String> never) {
        this.transport = transport;
        this.never = never;
    }

    @Override
    public String call() throws IOException {
        transport.readLine();
        synchronized (this) {
            transport.writeLine("unreachable " + never.join());
        }
        return "done";
    }
}
