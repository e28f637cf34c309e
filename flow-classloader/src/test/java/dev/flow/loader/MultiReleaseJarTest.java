package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A multi-release jar is read as the JDK reads it: the classes of {@code META-INF/versions/N/} (the
 * highest {@code N} not above the running feature version, only in a jar whose manifest says {@code
 * Multi-Release: true}) are Flow's classes like the others, for the class bytes and for the analysis.
 * The jar is written here: {@code mrfix.Base.version()} returns {@code "base"}; its version-11 form
 * awaits a future and calls {@code mrfix.Helper}, a package-private class that exists only in
 * version 11; a version above the running JDK returns {@code "future"}.
 */
class MultiReleaseJarTest {

    private static final int RUNTIME = Runtime.version().feature();

    @TempDir
    Path dir;

    @Test
    void versionOnlyClassesOfAMultiReleaseJarAreDefinedByFlowsLoaderWithTheRestOfThePackage() throws Exception {
        try (URLClassLoader parent = new URLClassLoader(new URL[] {jar(true).toUri().toURL()}, getClass().getClassLoader())) {
            ContinuationClassLoader loader = ContinuationClassLoader.builder().include("mrfix").parent(parent).build();
            Class<?> base = loader.loadClass("mrfix.Base");
            assertSame(loader, base.getClassLoader());
            assertEquals("11", base.getMethod("version").invoke(null), "the version-11 class, as the JDK picks it");
            assertEquals(parent.loadClass("mrfix.Base").getMethod("version").invoke(null), base.getMethod("version").invoke(null));
            assertSame(loader, Class.forName("mrfix.Helper", false, loader).getClassLoader(), "no split across loaders");
            assertTrue(loader.isSuspendable("mrfix/Base", "version", "()Ljava/lang/String;"),
                    "the analysis reads the version-11 bytes, which await");
        }
    }

    @Test
    void versionedDirectoriesOfAJarNotDeclaredMultiReleaseAreIgnoredAsTheJdkIgnoresThem() throws Exception {
        try (URLClassLoader parent = new URLClassLoader(new URL[] {jar(false).toUri().toURL()}, getClass().getClassLoader())) {
            ContinuationClassLoader loader = ContinuationClassLoader.builder().include("mrfix").parent(parent).build();
            Class<?> base = loader.loadClass("mrfix.Base");
            assertEquals("base", base.getMethod("version").invoke(null));
            assertEquals(parent.loadClass("mrfix.Base").getMethod("version").invoke(null), base.getMethod("version").invoke(null));
            assertThrows(ClassNotFoundException.class, () -> Class.forName("mrfix.Helper", false, loader));
            assertFalse(loader.isSuspendable("mrfix/Base", "version", "()Ljava/lang/String;"));
        }
    }

    private Path jar(boolean multiRelease) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (multiRelease) {
            manifest.getMainAttributes().put(Attributes.Name.MULTI_RELEASE, "true");
        }
        Path jar = dir.resolve(multiRelease ? "mr.jar" : "plain.jar");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, manifest)) {
            put(j, "mrfix/", new byte[0]);
            put(j, "mrfix/Base.class", base(null));
            put(j, "META-INF/versions/9/mrfix/Base.class", base("9"));
            put(j, "META-INF/versions/11/mrfix/Base.class", base("11"));
            put(j, "META-INF/versions/11/mrfix/Helper.class", helper());
            put(j, "META-INF/versions/" + (RUNTIME + 1) + "/mrfix/Base.class", base("future"));
        }
        return jar;
    }

    private static void put(JarOutputStream j, String name, byte[] bytes) throws IOException {
        j.putNextEntry(new JarEntry(name));
        j.write(bytes);
        j.closeEntry();
    }

    /** {@code Base.version()}: {@code "base"}, or for {@code "11"} {@code Helper.tag(completedFuture("11").join())}. */
    private static byte[] base(String version) {
        ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        w.visit(Opcodes.V11, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, "mrfix/Base", null, "java/lang/Object", null);
        MethodVisitor m = w.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "version", "()Ljava/lang/String;", null, null);
        m.visitCode();
        if ("11".equals(version)) {
            m.visitLdcInsn("11");
            m.visitMethodInsn(Opcodes.INVOKESTATIC, "java/util/concurrent/CompletableFuture", "completedFuture",
                    "(Ljava/lang/Object;)Ljava/util/concurrent/CompletableFuture;", false);
            m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/util/concurrent/CompletableFuture", "join", "()Ljava/lang/Object;", false);
            m.visitTypeInsn(Opcodes.CHECKCAST, "java/lang/String");
            m.visitMethodInsn(Opcodes.INVOKESTATIC, "mrfix/Helper", "tag", "(Ljava/lang/String;)Ljava/lang/String;", false);
        } else {
            m.visitLdcInsn(version == null ? "base" : version);
        }
        m.visitInsn(Opcodes.ARETURN);
        m.visitMaxs(0, 0);
        m.visitEnd();
        w.visitEnd();
        return w.toByteArray();
    }

    /** A package-private class with a package-private {@code static String tag(String s) { return s; }}. */
    private static byte[] helper() {
        ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        w.visit(Opcodes.V11, Opcodes.ACC_SUPER, "mrfix/Helper", null, "java/lang/Object", null);
        MethodVisitor m = w.visitMethod(Opcodes.ACC_STATIC, "tag", "(Ljava/lang/String;)Ljava/lang/String;", null, null);
        m.visitCode();
        m.visitVarInsn(Opcodes.ALOAD, 0);
        m.visitInsn(Opcodes.ARETURN);
        m.visitMaxs(0, 0);
        m.visitEnd();
        w.visitEnd();
        return w.toByteArray();
    }
}
