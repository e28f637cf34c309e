package dev.flow.loader.internal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.javaflow.providers.core.ContinuableClassTransformationFactory;
import org.apache.commons.javaflow.providers.core.PartialResourceTransformationFactory;
import org.apache.commons.javaflow.spi.ClassMatcher;
import org.apache.commons.javaflow.spi.ResourceLoader;
import org.apache.commons.javaflow.spi.ResourceTransformer;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.slf4j.Logger;

/**
 * The narrow bridge to Tascalate JavaFlow's enhancer: it is served the classes as prepared by
 * {@link Instrumenter} through JavaFlow's {@link ResourceLoader} SPI, and instruments the methods
 * marked {@code @continuable}. Calls are serialised: the enhancer is not thread-safe. A class the
 * parent cannot find is served to the engine as an empty class ({@link #absent}).
 *
 * <p>Each bridge has its own engine instance. JavaFlow's factory would share one analysis per resource
 * loader through a static cache of soft references whose values reach their keys, so that a dropped
 * class loader's analysis (and the whole scope it reads) stayed reachable until memory ran short;
 * the engine is therefore assembled here from the parts the factory would use, without the cache.
 */
public final class EngineBridge {

    private static final Logger LOG = dev.flow.internal.Slf4j.logger(EngineBridge.class);
    private static final String ENGINE = "org.apache.commons.javaflow.providers.core.";

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
                    if (name.endsWith(".class")) {
                        return new ByteArrayInputStream(absent(name.substring(0, name.length() - ".class".length())));
                    }
                    throw new IOException("resource not found: " + name);
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
        this.transformer = ownTransformer(resources);
    }

    /**
     * The class file the engine is served for a class the parent cannot find (a compile-only annotation,
     * an optional dependency that is not on the class path) or for an array type, whose methods the
     * engine looks up like a class's: a class with no supertype but {@code Object} and no members, so
     * nothing of it is continuable. That is the truth: every continuable method is Flow's or in scope,
     * and those are found.
     */
    static byte[] absent(String internalName) {
        ClassWriter w = new ClassWriter(0);
        w.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, internalName, null, "java/lang/Object", null);
        w.visitEnd();
        return w.toByteArray();
    }

    /**
     * The transformer {@link ContinuableClassTransformationFactory} would create, but over an analysis
     * of its own rather than the factory's static cache entry; the factory's if the engine's parts
     * cannot be reached (then a dropped loader's analysis is freed only under memory pressure).
     */
    private static ResourceTransformer ownTransformer(ResourceLoader resources) {
        try {
            ClassLoader engine = ContinuableClassTransformationFactory.class.getClassLoader();
            Object hierarchy = PartialResourceTransformationFactory.createHierarchy(resources);
            Class<?> hierarchyType = hierarchy.getClass();
            Class<?> sharedType = Class.forName(ENGINE + "SharedContinuableClassInfos", false, engine);
            Class<?> resolverType = Class.forName(ENGINE + "IContinuableClassInfoResolver", false, engine);
            Class<?> transformerType = Class.forName(ENGINE + "ContinuableClassTransformer", false, engine);
            Object shared = accessible(sharedType.getDeclaredConstructor(hierarchyType, ClassMatcher.class))
                    .newInstance(hierarchy, ClassMatcher.MATCH_NONE);
            Object resolver = accessible(resolverType.getDeclaredConstructor(ResourceLoader.class, sharedType))
                    .newInstance(resources, shared);
            return (ResourceTransformer) accessible(transformerType.getDeclaredConstructor(hierarchyType, resolverType))
                    .newInstance(hierarchy, resolver);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.warn("JavaFlow's engine parts are not accessible ({}); using its shared cache, which keeps a dropped "
                    + "loader's analysis until memory runs short", e.toString());
            return new ContinuableClassTransformationFactory().createTransformer(resources);
        }
    }

    private static <T> Constructor<T> accessible(Constructor<T> c) {
        c.setAccessible(true);
        return c;
    }

    /**
     * Instruments {@code prepared}; returns it unchanged if the engine has nothing to do. Each
     * instrumented method looks up the running continuation's recorder on entry; that lookup is
     * redirected from the engine's thread-local to {@link dev.flow.internal.Engine#current()}, which
     * reads a field of Flow's threads.
     */
    public synchronized byte[] enhance(byte[] prepared) {
        byte[] out = transformer.transform(prepared);
        return out != null ? redirectRecorderLookups(out) : prepared;
    }

    /**
     * Like {@link #enhance}, for a class the engine has seen before in another form (fewer methods
     * marked): its cached view of {@code internalName} is read again from {@code prepared}.
     */
    synchronized byte[] enhanceAgain(byte[] prepared, String internalName) {
        byte[] out = transformer.transform(prepared, internalName);
        return out != null ? redirectRecorderLookups(out) : prepared;
    }

    /** The tags of the constant-pool entries {@link #redirectRecorderLookups} reads and writes. */
    private static final int UTF8 = 1;
    private static final int CLASS = 7;
    private static final int METHODREF = 10;
    private static final int NAME_AND_TYPE = 12;

    /**
     * Redirects every {@code StackRecorder.get()} in {@code enhanced} to {@code Engine.current()}: the
     * constant-pool entries of that method are pointed at four entries appended to the pool (the class,
     * its name, the method's name and its name-and-type), in place, without parsing or writing the code;
     * {@link #redirectByRewriting} if the pool has no room for them. The instructions that result are the
     * same as the rewriting's.
     */
    static byte[] redirectRecorderLookups(byte[] enhanced) {
        ClassReader r = new ClassReader(enhanced);
        char[] buf = new char[r.getMaxStringLength()];
        int count = r.getItemCount();
        List<Integer> refs = new ArrayList<>();
        int descIndex = 0;
        for (int i = 1; i < count; i++) {
            int off = r.getItem(i);
            if (off == 0 || enhanced[off - 1] != METHODREF) {
                continue;
            }
            int nat = r.getItem(r.readUnsignedShort(off + 2));
            if (Names.STACK_RECORDER.equals(r.readClass(off, buf)) && "get".equals(r.readUTF8(nat, buf))
                    && Names.RECORDER_LOOKUP_DESC.equals(r.readUTF8(nat + 2, buf))) {
                refs.add(off);
                descIndex = r.readUnsignedShort(nat + 2);
            }
        }
        if (refs.isEmpty()) {
            return enhanced;
        }
        if (count + 4 > 0xFFFF) {
            throw new IllegalStateException("constant pool too large to redirect the recorder lookups (" + (count - 1)
                    + " entries, limit " + (0xFFFF - 5) + ")");
        }
        byte[] owner = Names.ENGINE.getBytes(StandardCharsets.UTF_8);
        byte[] name = "current".getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream added = new ByteArrayOutputStream(owner.length + name.length + 16);
        added.write(UTF8);
        writeShort(added, owner.length);
        added.writeBytes(owner);
        added.write(CLASS);
        writeShort(added, count);
        added.write(UTF8);
        writeShort(added, name.length);
        added.writeBytes(name);
        added.write(NAME_AND_TYPE);
        writeShort(added, count + 2);
        writeShort(added, descIndex);
        byte[] tail = added.toByteArray();
        int end = r.header;
        byte[] out = new byte[enhanced.length + tail.length];
        System.arraycopy(enhanced, 0, out, 0, end);
        System.arraycopy(tail, 0, out, end, tail.length);
        System.arraycopy(enhanced, end, out, end + tail.length, enhanced.length - end);
        putShort(out, 8, count + 4);
        for (int off : refs) {
            putShort(out, off, count + 1);
            putShort(out, off + 2, count + 3);
        }
        return out;
    }

    private static void writeShort(ByteArrayOutputStream out, int v) {
        out.write(v >>> 8);
        out.write(v);
    }

    private static void putShort(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 8);
        b[off + 1] = (byte) v;
    }
}
