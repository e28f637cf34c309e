package dev.flow.loader.internal;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.objectweb.asm.ClassReader;
import org.slf4j.Logger;

/**
 * Warns of the methods that instrumentation takes past HotSpot's limit for compiled methods. HotSpot
 * compiles no method of more than {@value #LIMIT} bytes of bytecode while {@code -XX:+DontCompileHugeMethods},
 * its default, is on: such a method runs interpreted for the life of the JVM. The engine's capture and
 * restore code grows a method by its suspendable calls times its live values, so a method well inside the
 * limit as compiled can end beyond it (pgjdbc's {@code QueryExecutorImpl.processResults}: 2,303 bytes as
 * compiled, 11,601 as the engine writes it, called for every query); {@link HugeMethodShrink} brings most such
 * methods back under it (that one to 7,129), and this class warns of the rest. Each class defined with such a method logs one
 * warning per method, naming the class, the method, its descriptor, both sizes and the JVM option that lets
 * HotSpot compile it ({@code -XX:-DontCompileHugeMethods}); nothing is logged when the JVM runs with that
 * option, nor for a method already beyond the limit as compiled. Thread-safe.
 */
public final class HugeMethods {

    /** HotSpot's {@code HugeMethodLimit}: the most bytes of bytecode of a method it compiles by default. */
    public static final int LIMIT = 8000;

    private static final Logger LOG = dev.flow.internal.Slf4j.logger(HugeMethods.class);
    /** How many warnings {@link #warnings()} keeps: the first ones (each is logged in any case). */
    private static final int KEPT = 1000;
    private static final List<String> WARNINGS = new CopyOnWriteArrayList<>();
    private static volatile Boolean compilesHugeMethods;

    private HugeMethods() {
    }

    /**
     * Checks the class file {@code defined} for {@code internalName}, whose class file as compiled
     * {@code source} serves (none for a class Flow generated), and logs a warning for each method
     * instrumentation took past {@link #LIMIT}.
     */
    static void check(String internalName, byte[] defined, ClassLoader source) {
        if (defined.length <= LIMIT) {
            return; // no method of it can be longer than the whole class file: most classes end here
        }
        Map<String, Integer> sizes = codeLengths(defined);
        if (sizes.values().stream().noneMatch(n -> n > LIMIT) || compilesHugeMethods()) {
            return;
        }
        Map<String, Integer> compiled = compiledLengths(internalName, source);
        for (Map.Entry<String, Integer> m : sizes.entrySet()) {
            Integer before = compiled.get(m.getKey());
            if (m.getValue() <= LIMIT || (before != null && before > LIMIT)) {
                continue;
            }
            String warning = internalName.replace('/', '.') + "." + m.getKey()
                    + ": " + m.getValue() + " bytes of bytecode instrumented"
                    + (before != null ? " (" + before + " as compiled)" : "")
                    + ", over the " + LIMIT + " bytes HotSpot compiles: it will run interpreted; run the JVM with"
                    + " -XX:-DontCompileHugeMethods to have it compiled";
            if (WARNINGS.size() < KEPT) {
                WARNINGS.add(warning);
            }
            LOG.warn(warning);
        }
    }

    /** The warnings logged so far, oldest first, up to the first 1,000 (for tests and diagnostics). */
    public static List<String> warnings() {
        return List.copyOf(WARNINGS);
    }

    /** The code length of each method of {@code classFile} that has code, by name and descriptor. */
    static Map<String, Integer> codeLengths(byte[] classFile) {
        ClassReader r = new ClassReader(classFile);
        char[] buf = new char[r.getMaxStringLength()];
        int u = r.header + 6; // access_flags, this_class, super_class
        u += 2 + 2 * r.readUnsignedShort(u); // interfaces
        int fields = r.readUnsignedShort(u);
        u += 2;
        for (int i = 0; i < fields; i++) {
            u = skipAttributes(r, u + 6); // access_flags, name, descriptor
        }
        int methods = r.readUnsignedShort(u);
        u += 2;
        Map<String, Integer> out = new LinkedHashMap<>();
        for (int i = 0; i < methods; i++) {
            String method = r.readUTF8(u + 2, buf) + r.readUTF8(u + 4, buf);
            int attributes = r.readUnsignedShort(u + 6);
            u += 8;
            for (int a = 0; a < attributes; a++) {
                if ("Code".equals(r.readUTF8(u, buf))) {
                    // name (2), length (4), max_stack (2), max_locals (2), then code_length (4)
                    out.put(method, r.readInt(u + 10));
                }
                u += 6 + r.readInt(u + 2);
            }
        }
        return out;
    }

    /** The offset after the attribute count at {@code u} and the attributes that follow it. */
    private static int skipAttributes(ClassReader r, int u) {
        int attributes = r.readUnsignedShort(u);
        u += 2;
        for (int a = 0; a < attributes; a++) {
            u += 6 + r.readInt(u + 2);
        }
        return u;
    }

    private static Map<String, Integer> compiledLengths(String internalName, ClassLoader source) {
        try (InputStream in = source.getResourceAsStream(internalName + ".class")) {
            return in == null ? Map.of() : codeLengths(in.readAllBytes());
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
    }

    /** Whether this JVM compiles methods beyond {@link #LIMIT} ({@code -XX:-DontCompileHugeMethods}). */
    private static boolean compilesHugeMethods() {
        Boolean known = compilesHugeMethods;
        if (known == null) {
            boolean compiles;
            try {
                compiles = "false".equals(ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                        .getVMOption("DontCompileHugeMethods").getValue());
            } catch (RuntimeException | LinkageError e) {
                // Not HotSpot, or no management module: say nothing is compiled beyond the limit, as HotSpot by default.
                compiles = false;
            }
            compilesHugeMethods = known = compiles;
        }
        return known;
    }
}
