package flowtest.mina;

import java.io.DataInputStream;
import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * Reads an int from a {@code DataInputStream} made outside the loaded scope (by the caller): the JDK's own
 * class, whose final {@code readInt} waits inside the JDK's frames.
 */
public class ForeignDataInput implements Callable<Integer> {
    private final DataInputStream in;

    public ForeignDataInput(DataInputStream in) {
        this.in = in;
    }

    @Override
    public Integer call() throws IOException {
        return in.readInt();
    }
}
