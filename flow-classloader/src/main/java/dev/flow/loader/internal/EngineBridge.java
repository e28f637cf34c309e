package dev.flow.loader.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import org.apache.commons.javaflow.providers.core.ContinuableClassTransformationFactory;
import org.apache.commons.javaflow.providers.core.PartialResourceTransformationFactory;
import org.apache.commons.javaflow.spi.ClassMatcher;
import org.apache.commons.javaflow.spi.ResourceLoader;
import org.apache.commons.javaflow.spi.ResourceTransformer;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
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

    /** Redirects every {@code StackRecorder.get()} in {@code enhanced} to {@code Engine.current()}. */
    private static byte[] redirectRecorderLookups(byte[] enhanced) {
        ClassReader r = new ClassReader(enhanced);
        ClassWriter w = new ClassWriter(r, 0);
        r.accept(new ClassVisitor(Opcodes.ASM9, w) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                return new MethodVisitor(Opcodes.ASM9, super.visitMethod(access, name, desc, signature, exceptions)) {
                    @Override
                    public void visitMethodInsn(int opcode, String owner, String m, String d, boolean itf) {
                        if (opcode == Opcodes.INVOKESTATIC && owner.equals(Names.STACK_RECORDER) && m.equals("get")
                                && d.equals(Names.RECORDER_LOOKUP_DESC)) {
                            super.visitMethodInsn(opcode, Names.ENGINE, "current", d, false);
                        } else {
                            super.visitMethodInsn(opcode, owner, m, d, itf);
                        }
                    }
                };
            }
        }, 0);
        return w.toByteArray();
    }
}
