package flowtest.mina;

import java.io.DataInputStream;
import java.io.IOException;
import java.util.concurrent.Callable;

/** Reads a line with the deprecated {@code readLine} of a {@code DataInputStream} made outside the loaded scope. */
public class ForeignDataLine implements Callable<String> {
    private final DataInputStream in;

    public ForeignDataLine(DataInputStream in) {
        this.in = in;
    }

    @Override
    @SuppressWarnings("deprecation")
    public String call() throws IOException {
        return in.readLine();
    }
}
