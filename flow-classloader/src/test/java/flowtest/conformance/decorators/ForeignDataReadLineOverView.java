package flowtest.conformance.decorators;

import flowtest.support.Async;
import flowtest.support.ChunkedTransport;
import flowtest.support.Foreign;
import java.io.DataInputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/**
 * The deprecated {@code readLine} of a JDK {@code DataInputStream} made outside the scope over the input view
 * (a lone {@code '\r'} makes the JDK put a byte back): it cannot suspend faithfully, so it is reported at its site.
 */
public final class ForeignDataReadLineOverView implements Callable<Object> {
    @Override
    @SuppressWarnings("deprecation")
    public Object call() throws Exception {
        ChunkedTransport t = ChunkedTransport.of("one\r\ntwo\rthree\n".getBytes(StandardCharsets.US_ASCII), 3);
        String first = Async.later("a").get();
        DataInputStream in = Foreign.dataInput(t.inputStream());
        return first + in.readLine() + "|" + in.readLine() + "|" + in.readLine() + "|" + in.readLine();
    }
}
