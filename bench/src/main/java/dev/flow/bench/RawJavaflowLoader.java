package dev.flow.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.apache.commons.javaflow.providers.core.ContinuableClassTransformationFactory;
import org.apache.commons.javaflow.spi.ResourceLoader;
import org.apache.commons.javaflow.spi.ResourceTransformer;

/**
 * A tiny child-first class loader for the raw Tascalate JavaFlow reference: classes of one package
 * prefix are read from the parent's class files, run through JavaFlow's own transformer (which
 * instruments the methods marked {@code @continuable}) and defined here; everything else, the
 * JavaFlow API included, comes from the parent. No Flow code is involved.
 */
final class RawJavaflowLoader extends ClassLoader {

    private final String prefix;
    private final ResourceTransformer transformer;

    RawJavaflowLoader(ClassLoader parent, String packageName) {
        super("raw-javaflow", parent);
        this.prefix = packageName + ".";
        ResourceLoader resources = new ResourceLoader() {
            @Override
            public boolean hasResource(String name) {
                return parent.getResource(name) != null;
            }

            @Override
            public InputStream getResourceAsStream(String name) throws IOException {
                InputStream in = parent.getResourceAsStream(name);
                if (in == null) {
                    throw new IOException("class file not found: " + name);
                }
                return in;
            }
        };
        this.transformer = new ContinuableClassTransformationFactory().createTransformer(resources);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.startsWith(prefix)) {
            return super.loadClass(name, resolve);
        }
        synchronized (this) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                byte[] original = read(name);
                byte[] out = transformer.transform(original);
                byte[] b = out != null ? out : original;
                c = defineClass(name, b, 0, b.length);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    private byte[] read(String name) throws ClassNotFoundException {
        String path = name.replace('.', '/') + ".class";
        try (InputStream in = getParent().getResourceAsStream(path)) {
            if (in == null) {
                throw new ClassNotFoundException(name);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }

    /** Loads {@code className} here and creates an instance with its only public constructor. */
    <T> T newInstance(Class<T> type, String className, Object... args) {
        try {
            Class<?> c = loadClass(className);
            return type.cast(c.getConstructors()[0].newInstance(args));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot instantiate " + className, e);
        }
    }
}
