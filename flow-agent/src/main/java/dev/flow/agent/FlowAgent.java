package dev.flow.agent;

import dev.flow.loader.internal.Scope;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;

/**
 * The Java agent: {@code java -javaagent:flow-agent.jar=include=com.example.proto[,more][;exclude=...][;strict][;anyloader][;cache=<dir>|off] ...}
 * makes the included packages suspendable for whichever class loader defines them, with the {@code
 * ContinuationClassLoader}'s analysis, rewriting, pins, warnings and strict refusals ({@link Scope}).
 * Code loaded normally then runs as flows: {@code scheduler.submit(new Task(...))}, {@code
 * FlowServer.handler(Handler.class)}.
 *
 * <p>A bad argument (none, a misspelled option, an include naming no package or matching no class on the
 * class path) stops the JVM at start-up with a message naming it and what was expected. With {@code
 * anyloader}, for classes only other loaders define (a Spring Boot jar's nested jars, an application
 * server's), the class path is not checked; an include that matched no class in any loader is printed at
 * exit, and each other loader's scope when it is analysed. The class files are kept in the loader's class
 * cache ({@code ;cache=<dir>|off}, else {@code -Ddev.flow.loader.cache}), so that the next JVM defines them
 * without analysing its scope. In an executable
 * jar whose manifest names this class as {@code Launcher-Agent-Class}, the argument is the manifest's
 * {@code Flow-Agent} attribute.
 *
 * <p>Runs once, on the JVM's start-up thread; the transformer it installs is thread-safe.
 */
public final class FlowAgent {

    /** The manifest attribute that holds the argument of a {@code Launcher-Agent-Class} agent. */
    public static final String MANIFEST_ATTRIBUTE = "Flow-Agent";

    private FlowAgent() {
    }

    /**
     * Entry point of {@code -javaagent}.
     *
     * @throws IllegalArgumentException for a bad argument, which stops the JVM
     */
    public static void premain(String args, Instrumentation inst) {
        start(args, inst);
    }

    /**
     * Entry point of {@code Launcher-Agent-Class} (an executable jar that starts the agent itself): the
     * argument, if empty, is read from the jar's {@value #MANIFEST_ATTRIBUTE} manifest attribute. Loading
     * into a running JVM is not supported: classes loaded before would stay uninstrumented.
     *
     * @throws IllegalArgumentException for a bad argument
     */
    public static void agentmain(String args, Instrumentation inst) {
        start(args == null || args.isBlank() ? launcherArgument() : args, inst);
    }

    private static String launcherArgument() {
        String jar = System.getProperty("java.class.path", "");
        try (JarFile f = new JarFile(jar)) {
            String a = f.getManifest() == null ? null : f.getManifest().getMainAttributes().getValue(MANIFEST_ATTRIBUTE);
            if (a == null) {
                throw new IllegalArgumentException("flow-agent: " + jar + " has no " + MANIFEST_ATTRIBUTE
                        + " manifest attribute (expected: " + MANIFEST_ATTRIBUTE + ": " + AgentOptions.SYNTAX + ")");
            }
            return a;
        } catch (IOException e) {
            throw new IllegalArgumentException("flow-agent: cannot read the manifest of " + jar + " (expected: an executable jar"
                    + " with a " + MANIFEST_ATTRIBUTE + " attribute)", e);
        }
    }

    private static void start(String args, Instrumentation inst) {
        AgentOptions options = AgentOptions.parse(args);
        ClassLoader system = ClassLoader.getSystemClassLoader();
        if (system.getResource("dev/flow/internal/Pins.class") == null) {
            throw new IllegalStateException("flow-agent: dev.flow:flow-core is not on the class path (expected: the application's"
                    + " class path holds flow-core and JavaFlow's api; the agent brings only the instrumentation)");
        }
        ScopeTransformer transformer = new ScopeTransformer(options, defineClass(inst), System.err);
        inst.addTransformer(transformer);
        LoaderScope scope = transformer.scopeOf(system, null);
        if (options.anyLoader) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                for (String p : transformer.unmatchedIncludes()) {
                    System.err.println("flow-agent: include=" + p + " matched no class in any class loader (expected: a package"
                            + " of the application's classes)");
                }
            }, "flow-agent-unmatched-includes"));
        } else if (!transformer.unmatchedIncludes().isEmpty()) {
            inst.removeTransformer(transformer);
            throw new IllegalArgumentException("flow-agent: include=" + transformer.unmatchedIncludes().get(0) + " matches no class"
                    + " on the class path (expected:"
                    + " a package whose classes the application's class path holds; for classes that only another class"
                    + " loader defines, such as a Spring Boot jar's or an application server's, add ;anyloader)");
        }
        System.err.println("flow-agent: " + options + ": " + scope.classes().size() + " classes in scope"
                + (scope.isAnalysed() ? "" : " (from the class cache " + scope.cacheDirectory() + ")"));
    }

    /** {@code ClassLoader.defineClass}, made accessible by opening {@code java.lang} to the agent. */
    private static Method defineClass(Instrumentation inst) {
        Module base = ClassLoader.class.getModule();
        inst.redefineModule(base, Set.of(), Map.of(), Map.of("java.lang", Set.of(FlowAgent.class.getModule())), Set.of(),
                Map.of());
        try {
            Method m = ClassLoader.class.getDeclaredMethod("defineClass", String.class, byte[].class, int.class, int.class,
                    ProtectionDomain.class);
            m.setAccessible(true);
            return m;
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("flow-agent: ClassLoader.defineClass not found", e);
        }
    }
}
