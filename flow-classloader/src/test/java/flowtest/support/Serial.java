package flowtest.support;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;

/** Test support outside the instrumented scope: a Java serialization round trip. */
public final class Serial {

    private Serial() {
    }

    /** Serializes {@code value} and reads it back, resolving classes through the loader of {@code value}'s class. */
    @SuppressWarnings("unchecked")
    public static <T> T roundTrip(T value) throws IOException, ClassNotFoundException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        ClassLoader loader = value.getClass().getClassLoader();
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray())) {
            @Override
            protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
                return Class.forName(desc.getName(), false, loader);
            }
        }) {
            return (T) in.readObject();
        }
    }
}
