package dev.flow.loader.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.commons.javaflow.providers.core.ContinuableClassTransformationFactory;
import org.apache.commons.javaflow.spi.ResourceLoader;
import org.apache.commons.javaflow.spi.ResourceTransformer;

/**
 * The narrow bridge to Tascalate JavaFlow's enhancer: it is served the classes as prepared by
 * {@link Instrumenter} through JavaFlow's {@link ResourceLoader} SPI, and instruments the methods
 * marked {@code @continuable}. Calls are serialised: the enhancer is not thread-safe.
 */
public final class EngineBridge {

    private final ResourceTransformer transformer;

    /** Creates a bridge serving {@code instrumenter}'s classes and {@code parent}'s others. */
    public EngineBridge(Instrumenter instrumenter, ClassLoader parent) {
        ResourceLoader resources = new ResourceLoader() {
            @Override
            public boolean hasResource(String name) {
                return view(name) != null || parent.getResource(name) != null;
            }

            @Override
            public InputStream getResourceAsStream(String name) throws IOException {
                byte[] b = view(name);
                if (b != null) {
                    return new ByteArrayInputStream(b);
                }
                InputStream in = parent.getResourceAsStream(name);
                if (in == null) {
                    throw new IOException("class file not found: " + name);
                }
                return in;
            }

            private byte[] view(String name) {
                if (!name.endsWith(".class")) {
                    return null;
                }
                return instrumenter.resolverView(name.substring(0, name.length() - ".class".length()));
            }
        };
        this.transformer = new ContinuableClassTransformationFactory().createTransformer(resources);
    }

    /** Instruments {@code prepared}; returns it unchanged if the engine has nothing to do. */
    public synchronized byte[] enhance(byte[] prepared) {
        byte[] out = transformer.transform(prepared);
        return out != null ? out : prepared;
    }
}
