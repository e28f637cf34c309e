package dev.flow.loader;

import java.nio.file.Files;
import java.nio.file.Path;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Writes fixture classes of one shape, generated because their size is the point: a public {@code Callable}
 * over a {@code CompletableFuture} whose {@code call()} returns {@code Long.valueOf(run(future))}, with the
 * body of {@code static long run(CompletableFuture f)} given by the test.
 */
final class FutureRunFixture {

    /** The descriptor of {@code run}. */
    static final String RUN = "(Ljava/util/concurrent/CompletableFuture;)J";

    private final String internalName;
    private final ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);

    /** Starts class {@code internalName} with its field, constructor and {@code call()}. */
    FutureRunFixture(String internalName) {
        this.internalName = internalName;
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, internalName, null, "java/lang/Object",
                new String[] {"java/util/concurrent/Callable"});
        cw.visitField(Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL, "f", "Ljava/util/concurrent/CompletableFuture;", null, null);
        MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "(Ljava/util/concurrent/CompletableFuture;)V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitVarInsn(Opcodes.ALOAD, 1);
        init.visitFieldInsn(Opcodes.PUTFIELD, internalName, "f", "Ljava/util/concurrent/CompletableFuture;");
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        MethodVisitor call = cw.visitMethod(Opcodes.ACC_PUBLIC, "call", "()Ljava/lang/Object;", null, null);
        call.visitCode();
        call.visitVarInsn(Opcodes.ALOAD, 0);
        call.visitFieldInsn(Opcodes.GETFIELD, internalName, "f", "Ljava/util/concurrent/CompletableFuture;");
        call.visitMethodInsn(Opcodes.INVOKESTATIC, internalName, "run", RUN, false);
        call.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Long", "valueOf", "(J)Ljava/lang/Long;", false);
        call.visitInsn(Opcodes.ARETURN);
        call.visitMaxs(0, 0);
        call.visitEnd();
    }

    /** {@code run}'s visitor, its code begun: the test writes the body and ends with {@code LRETURN}. */
    MethodVisitor run() {
        MethodVisitor run = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "run", RUN, null, null);
        run.visitCode();
        return run;
    }

    /** Writes into {@code run}: long local {@code local} += {@code (Long) f.join()}. */
    static void addJoin(MethodVisitor run, int local) {
        run.visitVarInsn(Opcodes.LLOAD, local);
        run.visitVarInsn(Opcodes.ALOAD, 0);
        run.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/util/concurrent/CompletableFuture", "join", "()Ljava/lang/Object;",
                false);
        run.visitTypeInsn(Opcodes.CHECKCAST, "java/lang/Long");
        run.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/Long", "longValue", "()J", false);
        run.visitInsn(Opcodes.LADD);
        run.visitVarInsn(Opcodes.LSTORE, local);
    }

    /** Ends {@code run} and the class, and writes it under {@code dir}; returns {@code dir}. */
    Path write(MethodVisitor run, Path dir) throws Exception {
        run.visitMaxs(0, 0);
        run.visitEnd();
        cw.visitEnd();
        Path file = dir.resolve(internalName + ".class");
        Files.createDirectories(file.getParent());
        Files.write(file, cw.toByteArray());
        return dir;
    }
}
