package dev.flow.loader.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.util.CheckClassAdapter;
import org.objectweb.asm.util.TraceClassVisitor;

/** The redirect of the engine's recorder lookups written into the constant pool, against the rewriting it replaces. */
class RecorderRedirectTest {

    /** A class whose methods look up the recorder, among other calls and wide constants; {@code padding} extra constants. */
    private static byte[] lookingUp(int padding) {
        ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        w.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, "p/Looks", null, "java/lang/Object", null);
        for (int i = 0; i < padding; i++) {
            w.newUTF8("c" + i);
        }
        for (String name : new String[] {"a", "b"}) {
            MethodVisitor m = w.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, name, "()J", null, null);
            m.visitCode();
            m.visitMethodInsn(Opcodes.INVOKESTATIC, Names.STACK_RECORDER, "get", Names.RECORDER_LOOKUP_DESC, false);
            m.visitInsn(Opcodes.POP);
            m.visitLdcInsn(1234567890123L);
            m.visitLdcInsn(2.5d);
            m.visitInsn(Opcodes.POP2);
            m.visitMethodInsn(Opcodes.INVOKESTATIC, Names.STACK_RECORDER, "get", Names.RECORDER_LOOKUP_DESC, false);
            m.visitMethodInsn(Opcodes.INVOKESTATIC, "java/util/Objects", "requireNonNull", "(Ljava/lang/Object;)Ljava/lang/Object;", false);
            m.visitInsn(Opcodes.POP);
            m.visitInsn(Opcodes.LRETURN);
            m.visitMaxs(0, 0);
            m.visitEnd();
        }
        w.visitEnd();
        return w.toByteArray();
    }

    private static String text(byte[] b) {
        StringWriter s = new StringWriter();
        new ClassReader(b).accept(new TraceClassVisitor(new PrintWriter(s)), 0);
        return s.toString();
    }

    @Test
    void patchedConstantPoolGivesTheInstructionsOfTheRewriting() {
        byte[] original = lookingUp(0);
        byte[] patched = EngineBridge.redirectRecorderLookups(original);
        String expected = text(redirectByRewriting(original));
        assertEquals(expected, text(patched));
        assertTrue(expected.contains("INVOKESTATIC " + Names.ENGINE + ".current ()L" + Names.STACK_RECORDER + ";"), expected);
        assertFalse(text(patched).contains(Names.STACK_RECORDER + ".get"), text(patched));
        StringWriter problems = new StringWriter();
        CheckClassAdapter.verify(new ClassReader(patched), false, new PrintWriter(problems));
        assertEquals("", problems.toString());
    }

    @Test
    void aClassWithoutLookupsIsReturnedAsItIs() {
        ClassWriter w = new ClassWriter(0);
        w.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "p/None", null, "java/lang/Object", null);
        w.visitEnd();
        byte[] b = w.toByteArray();
        assertSame(b, EngineBridge.redirectRecorderLookups(b));
    }

    @Test
    void aConstantPoolWithoutRoomForFourEntriesIsRefusedNamingTheLimit() {
        byte[] original = lookingUp(0xFFFF - 2 - new ClassReader(lookingUp(0)).getItemCount());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> EngineBridge.redirectRecorderLookups(original));
        assertEquals("constant pool too large to redirect the recorder lookups (65532 entries, limit 65530)", e.getMessage());
    }

    /** The rewriting the constant-pool redirect replaced: every lookup's instruction rewritten by ASM. */
    private static byte[] redirectByRewriting(byte[] enhanced) {
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
