package dev.flow.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.loader.internal.Scope;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** The agent jar this build made, against the flow-classloader classes the same build compiled. */
class AgentJarTest {

    /**
     * Every class of flow-classloader is in the agent jar as this build compiled it (compared by a
     * fingerprint of its fields, methods, instructions and constants, ASM's package relocated): an
     * incremental build that changed only flow-classloader must not leave the agent jar, and the tests
     * that run it, with old code.
     */
    @Test
    void agentJarHoldsTheLoaderClassesThisBuildCompiled() throws Exception {
        Path loader = Paths.get(Scope.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Map<String, byte[]> compiled = classes(loader);
        assertTrue(compiled.size() > 20, "flow-classloader classes found in " + loader + ": " + compiled.keySet());
        try (ZipFile agent = new ZipFile(AgentJvm.agentJar())) {
            List<String> stale = new ArrayList<>();
            for (Map.Entry<String, byte[]> c : compiled.entrySet()) {
                ZipEntry e = agent.getEntry(c.getKey());
                assertNotNull(e, c.getKey() + " is missing from " + AgentJvm.agentJar());
                try (InputStream in = agent.getInputStream(e)) {
                    String expected = fingerprint(c.getValue()).replace("org/objectweb/asm/", "dev/flow/agent/shaded/asm/")
                            .replace("org.objectweb.asm", "dev.flow.agent.shaded.asm");
                    if (!expected.equals(fingerprint(in.readAllBytes()))) {
                        stale.add(c.getKey());
                    }
                }
            }
            assertEquals(List.of(), stale, "classes of " + AgentJvm.agentJar() + " that differ from " + loader);
        }
    }

    /** The class files of a jar or directory, by entry name; not module-info. */
    private static Map<String, byte[]> classes(Path p) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        if (Files.isDirectory(p)) {
            try (Stream<Path> s = Files.walk(p)) {
                for (Path f : (Iterable<Path>) s::iterator) {
                    String name = p.relativize(f).toString().replace('\\', '/');
                    if (name.endsWith(".class") && !name.contains("module-info")) {
                        out.put(name, Files.readAllBytes(f));
                    }
                }
            }
            return out;
        }
        try (ZipFile z = new ZipFile(p.toFile())) {
            for (ZipEntry e : Collections.list(z.entries())) {
                if (e.getName().endsWith(".class") && !e.getName().contains("module-info")) {
                    try (InputStream in = z.getInputStream(e)) {
                        out.put(e.getName(), in.readAllBytes());
                    }
                }
            }
        }
        return out;
    }

    /** The class's members, and each method's opcodes and constants, as text. */
    private static String fingerprint(byte[] b) {
        StringBuilder s = new StringBuilder();
        new ClassReader(b).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
                s.append("class ").append(name).append(' ').append(superName).append('\n');
            }

            @Override
            public FieldVisitor visitField(int access, String name, String desc, String signature, Object value) {
                s.append("field ").append(name).append(desc).append(' ').append(value).append('\n');
                return null;
            }

            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                s.append("method ").append(name).append(desc).append('\n');
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitInsn(int opcode) {
                        s.append(opcode).append(' ');
                    }

                    @Override
                    public void visitIntInsn(int opcode, int operand) {
                        s.append(opcode).append(':').append(operand).append(' ');
                    }

                    @Override
                    public void visitLdcInsn(Object value) {
                        s.append("ldc:").append(value).append(' ');
                    }

                    @Override
                    public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean itf) {
                        s.append(opcode).append(':').append(owner).append('.').append(name).append(desc).append(' ');
                    }

                    @Override
                    public void visitFieldInsn(int opcode, String owner, String name, String desc) {
                        s.append(opcode).append(':').append(owner).append('.').append(name).append(' ');
                    }

                    @Override
                    public void visitTypeInsn(int opcode, String type) {
                        s.append(opcode).append(':').append(type).append(' ');
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return s.toString();
    }
}
