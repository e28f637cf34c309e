package flowtest.support;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;

/** JDK decorators made outside the loaders' scope ({@code flowtest.conformance}), for fixtures to read. */
public final class Foreign {

    private Foreign() {
    }

    /** A JDK {@code DataInputStream} over {@code bytes}, made here, loaded normally. */
    public static DataInputStream dataInput(byte[] bytes) {
        return new DataInputStream(new ByteArrayInputStream(bytes));
    }
}
