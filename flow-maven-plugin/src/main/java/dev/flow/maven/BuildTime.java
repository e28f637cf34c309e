package dev.flow.maven;

import dev.flow.internal.Pins;
import dev.flow.loader.internal.Scope;
import dev.flow.loader.internal.SiteConsumers;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The build-time route: the included classes of a compiled project analysed as one {@link Scope}, as the
 * class loader and the agent analyse them, and written back instrumented so that they run suspended
 * with only Flow's runtime jars. A class file cannot name a pin site by the id this process registered,
 * so each id becomes a dynamic constant whose bootstrap ({@link Pins#bootstrapSite}) registers the same
 * site in the running process; the sites found are the pin report.
 *
 * <p>The originals of the included classes are kept in a directory of their own, so that a second run
 * (an incremental build that did not recompile a class) analyses the compiled code, never its own
 * output. One instance per run; not thread-safe.
 */
final class BuildTime {

    private static final String PINS = "dev/flow/internal/Pins";
    private static final String FLOW_TASK = "dev/flow/internal/FlowTask";
    private static final Handle BOOTSTRAP = new Handle(Opcodes.H_INVOKESTATIC, PINS, "bootstrapSite",
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/Class;Ljava/lang/String;Ljava/lang/String;I"
                    + "Ljava/lang/String;Ljava/lang/String;I)I", false);
    private static final Handle CALL_BOOTSTRAP = new Handle(Opcodes.H_INVOKESTATIC, PINS, "bootstrapSiteCall",
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/String;"
                    + "Ljava/lang/String;ILjava/lang/String;Ljava/lang/String;I)Ljava/lang/invoke/CallSite;", false);
    /** A place where a flow would block its worker rather than suspend. */
    static final class PinSite {
        final String className;
        final String method;
        final String sourceFile;
        final int line;
        final String reason;

        PinSite(String className, String method, String sourceFile, int line, String reason) {
            this.className = className;
            this.method = method;
            this.sourceFile = sourceFile;
            this.line = line;
            this.reason = reason;
        }

        /** In stack-trace style: {@code com.example.Foo.bar(Foo.java:42): reason}. */
        @Override
        public String toString() {
            return className + "." + method + "(" + sourceFile + (line > 0 ? ":" + line : "") + "): " + reason;
        }
    }

    private final Path classes;
    private final Path originals;
    private final List<Path> classPath;
    private final List<String> includes;
    private final List<String> excludes;
    private final boolean strict;
    private final Map<Integer, PinSite> sites = new LinkedHashMap<>();

    /**
     * @param classes the project's compiled classes ({@code target/classes}), rewritten in place
     * @param originals where the compiled form of the included classes is kept
     * @param classPath the project's dependencies
     */
    BuildTime(Path classes, Path originals, List<Path> classPath, List<String> includes, List<String> excludes, boolean strict) {
        this.classes = classes;
        this.originals = originals;
        this.classPath = List.copyOf(classPath);
        if (includes == null || includes.isEmpty()) {
            throw new IllegalArgumentException("includes: [] (expected: at least one package, e.g. <includes><include>"
                    + "com.example.proto</include></includes>)");
        }
        for (String p : includes) {
            Scope.checkPackage("includes", p);
        }
        for (String p : excludes) {
            Scope.checkPackage("excludes", p);
        }
        this.includes = List.copyOf(includes);
        this.excludes = List.copyOf(excludes);
        this.strict = strict;
    }

    /**
     * Analyses the included classes and returns every pin site, sorted by class and line; with {@code
     * write}, also writes the instrumented classes (and Flow's per-scope copies, and the classes the
     * rewriting adds) into the classes directory.
     *
     * @throws dev.flow.loader.InstrumentationException if a class cannot be instrumented (strict), or analysed
     * @throws IllegalArgumentException if an include matches no class
     */
    List<PinSite> run(boolean write) throws IOException {
        Set<String> compiled = stageOriginals();
        for (String p : includes) {
            String path = p.replace('.', '/') + "/";
            if (compiled.stream().noneMatch(c -> c.startsWith(path))) {
                throw new IllegalArgumentException("includes: " + p + " matches no class in " + classes
                        + " (expected: a package of this project's classes)");
            }
        }
        List<URL> urls = new ArrayList<>();
        urls.add(url(originals));
        urls.add(url(classes));
        for (Path p : classPath) {
            urls.add(url(p));
        }
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), BuildTime.class.getClassLoader())) {
            Scope scope = Scope.analyse(loader, includes, excludes, List.of(), strict, loader);
            Set<String> out = new TreeSet<>(scope.classes());
            out.addAll(scope.generated());
            out.addAll(Scope.copied());
            out.addAll(scope.substitutes());
            for (String name : out) {
                byte[] b = portable(scope.markedBytes(name), loader);
                if (write) {
                    Path file = classes.resolve(name + ".class");
                    Files.createDirectories(file.getParent());
                    Files.write(file, b);
                }
            }
        }
        List<PinSite> report = new ArrayList<>(sites.values());
        report.sort(Comparator.comparing((PinSite s) -> s.className).thenComparingInt(s -> s.line)
                .thenComparing(s -> s.method));
        return report;
    }

    /**
     * Copies each included class compiled since the last run to the originals; a class this route wrote
     * is read from there. Returns the internal names of the included classes.
     */
    private Set<String> stageOriginals() throws IOException {
        Set<String> names = new TreeSet<>();
        if (!Files.isDirectory(classes)) {
            return names;
        }
        List<Path> files;
        try (Stream<Path> s = Files.walk(classes)) {
            files = s.filter(p -> p.toString().endsWith(".class")).collect(java.util.stream.Collectors.toList());
        }
        for (Path f : files) {
            String rel = classes.relativize(f).toString().replace('\\', '/');
            String name = rel.substring(0, rel.length() - ".class".length());
            if (!covered(name) || name.endsWith("module-info") || name.endsWith("package-info")) {
                continue;
            }
            Path original = originals.resolve(rel);
            byte[] b = Files.readAllBytes(f);
            if (isMarked(b)) {
                if (!Files.isRegularFile(original) && isGenerated(b)) {
                    // Written by an earlier run for a class it generated: written again if still generated.
                    Files.delete(f);
                    continue;
                }
                if (!Files.isRegularFile(original)) {
                    throw new IllegalStateException(f + " was instrumented by an earlier run but its original is not in "
                            + originals + " (expected: both, or neither: run mvn clean)");
                }
            } else {
                Files.createDirectories(original.getParent());
                Files.write(original, b);
            }
            names.add(name);
        }
        return names;
    }

    /** Whether a class this route wrote is one the rewriting created (a desugared lambda). */
    private static boolean isGenerated(byte[] b) {
        return new ClassReader(b).getClassName().contains("$$FlowLambda$");
    }

    private boolean covered(String internalName) {
        String dotted = internalName.replace('/', '.');
        return includes.stream().anyMatch(i -> dotted.startsWith(i + "."))
                && excludes.stream().noneMatch(e -> dotted.startsWith(e + "."));
    }

    private static boolean isMarked(byte[] b) {
        boolean[] marked = {false};
        new ClassReader(b).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
                marked[0] |= Scope.MARK.equals(descriptor);
                return null;
            }
        }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return marked[0];
    }

    /** {@code bytes} with each site id a dynamic constant that registers the site where the class runs. */
    private byte[] portable(byte[] bytes, ClassLoader loader) {
        ClassNode cn = new ClassNode();
        new ClassReader(bytes).accept(cn, 0);
        boolean hasSites = false;
        for (MethodNode m : cn.methods) {
            for (AbstractInsnNode i = m.instructions.getFirst(); i != null; i = i.getNext()) {
                if (!(i instanceof LdcInsnNode) || !(((LdcInsnNode) i).cst instanceof Integer) || !consumesSite(nextReal(i))) {
                    continue;
                }
                int id = (Integer) ((LdcInsnNode) i).cst;
                Object[] r = Pins.registration(id);
                if (r == null) {
                    throw new IllegalStateException("no pin site " + id + " registered for " + cn.name + "." + m.name + m.desc);
                }
                Object[] args = {r[0], r[1], r[2], ((Pins.Reason) r[3]).name(), r[4] == null ? "" : r[4], ((Boolean) r[5]) ? 1 : 0};
                if (SiteConsumers.CONDITIONAL.contains(key(nextReal(i)))) {
                    // An invokedynamic, not a dynamic constant: these calls also meet null receivers, whose
                    // helpful message HotSpot 17 cannot compute beside a dynamic constant (it crashed).
                    InvokeDynamicInsnNode call = new InvokeDynamicInsnNode("site", "()I", CALL_BOOTSTRAP, args);
                    m.instructions.set(i, call);
                    i = call;
                } else {
                    ((LdcInsnNode) i).cst = new ConstantDynamic("site", "I", BOOTSTRAP, args);
                    if (!isTaskEntryWrapper(cn, m)) {
                        sites.computeIfAbsent(id, k -> site(r, loader));
                    }
                }
                hasSites = true;
            }
        }
        if (hasSites && cn.version < Opcodes.V11) {
            cn.version = Opcodes.V11;
        }
        ClassWriter w = new ClassWriter(0);
        cn.accept(w);
        return w.toByteArray();
    }

    /**
     * Whether {@code m} is the pinning wrapper of a task's {@code call()} or {@code run()}: it pins only
     * when code outside the scope calls it in a flow; a scheduler enters a task through {@code
     * flow$call}, so it is not a site of the report.
     */
    private static boolean isTaskEntryWrapper(ClassNode cn, MethodNode m) {
        return cn.interfaces.contains(FLOW_TASK)
                && (m.name.equals("call") && m.desc.equals("()Ljava/lang/Object;") || m.name.equals("run") && m.desc.equals("()V"));
    }

    private static boolean consumesSite(AbstractInsnNode next) {
        if (!(next instanceof MethodInsnNode) || next.getOpcode() != Opcodes.INVOKESTATIC) {
            return false;
        }
        return SiteConsumers.ALL.contains(key(next));
    }

    /**
     * The instruction after {@code i}, past labels and frames: the engine places the resume point of a
     * call that can suspend between its last argument and the call.
     */
    private static AbstractInsnNode nextReal(AbstractInsnNode i) {
        AbstractInsnNode n = i.getNext();
        while (n != null && n.getOpcode() < 0) {
            n = n.getNext();
        }
        return n;
    }

    private static String key(AbstractInsnNode call) {
        MethodInsnNode c = (MethodInsnNode) call;
        return c.owner + "." + c.name + c.desc;
    }

    private static PinSite site(Object[] r, ClassLoader loader) {
        String className = (String) r[0];
        String method = (String) r[1];
        int paren = method.indexOf('(');
        String name = paren < 0 ? method : method.substring(0, paren);
        Pins.Reason reason = (Pins.Reason) r[3];
        String text = reason.text() + (r[4] == null ? "" : " (" + r[4] + ")");
        return new PinSite(className, name, sourceFile(className, loader), (Integer) r[2], text);
    }

    private static String sourceFile(String className, ClassLoader loader) {
        String[] source = {null};
        try (InputStream in = loader.getResourceAsStream(className.replace('.', '/') + ".class")) {
            if (in != null) {
                new ClassReader(in).accept(new ClassVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitSource(String file, String debug) {
                        source[0] = file;
                    }
                }, ClassReader.SKIP_CODE | ClassReader.SKIP_FRAMES);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (source[0] != null) {
            return source[0];
        }
        String simple = className.substring(className.lastIndexOf('.') + 1);
        int dollar = simple.indexOf('$');
        return (dollar < 0 ? simple : simple.substring(0, dollar)) + ".java";
    }

    private static URL url(Path p) {
        try {
            return p.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("class path entry: " + p + " (expected: a file or directory)", e);
        }
    }
}
