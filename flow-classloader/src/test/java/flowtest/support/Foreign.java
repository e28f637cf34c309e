package flowtest.support;

import java.io.ByteArrayInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.InputStream;
import java.io.OutputStream;

/** JDK decorators made outside the loaders' scope ({@code flowtest.conformance}), for fixtures to read and write through. */
public final class Foreign {

    private Foreign() {
    }

    /** A JDK {@code DataOutputStream} over a JDK {@code BufferedOutputStream} of 4 bytes over {@code out}, made here. */
    public static DataOutputStream dataOutput(OutputStream out) {
        return new DataOutputStream(new BufferedOutputStream(out, 4));
    }

    /** A JDK {@code DataInputStream} over {@code in}, made here. */
    public static DataInputStream dataInput(InputStream in) {
        return new DataInputStream(in);
    }

    /** A JDK {@code DataInputStream} over {@code bytes}, made here, loaded normally. */
    public static DataInputStream dataInput(byte[] bytes) {
        return new DataInputStream(new ByteArrayInputStream(bytes));
    }
}
