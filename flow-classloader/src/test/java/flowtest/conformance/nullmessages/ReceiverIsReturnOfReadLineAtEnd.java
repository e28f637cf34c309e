package flowtest.conformance.nullmessages;

import dev.flow.Transport;
import flowtest.support.MemoryTransport;
import java.util.concurrent.Callable;

/**
 * A method called on the null that {@code Transport.readLine()} returns at the end of the input: its
 * replacement is a static call, so the message loses its "because" part.
 */
public final class ReceiverIsReturnOfReadLineAtEnd implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Transport t = new MemoryTransport(new byte[0]);
        return t.readLine().trim();
    }
}
