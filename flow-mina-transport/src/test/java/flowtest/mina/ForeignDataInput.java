package flowtest.mina;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * Reads an int and then a byte (or end of stream) from a {@code DataInputStream} made outside the loaded
 * scope (by the caller): the JDK's own class, whose final reads wait inside the JDK's frames.
 */
public class ForeignDataInput implements Callable<String> {
    private final DataInputStream in;

    public ForeignDataInput(DataInputStream in) {
        this.in = in;
    }

    @Override
    public String call() throws IOException {
        int value = in.readInt();
        try {
            return value + " " + in.readByte();
        } catch (EOFException e) {
            return value + " EOF";
        }
    }
}
