package dev.flow.samples.routes;

import java.io.File;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The class paths and agent of the JVMs the route tests start, taken from this test's own class path.
 * Stateless.
 */
final class Routes {

    /** Class path entries of the instrumentation side: flow-classloader, ASM, JavaFlow's enhancer, the plugin, the agent. */
    private static final List<String> INSTRUMENTATION = List.of("flow-classloader", "/org/ow2/asm/", "javaflow.spi",
            "javaflow.providers", "asmx", "flow-maven-plugin", "flow-agent");
    /** Class path entries of the tests only. */
    private static final List<String> TESTS = List.of("test-classes", "-tests.jar", "junit", "opentest4j", "apiguardian",
            "surefire", "jedis", "commons-pool2", "gson", "org/json");

    private Routes() {
    }

    /** The samples' runtime with neither the tests nor the instrumentation side: what the agent and build-time routes run with. */
    static String runtimeClassPath() {
        return entries(e -> INSTRUMENTATION.stream().noneMatch(e::contains));
    }

    /** The samples' runtime with the class loader (flow-classloader, ASM, JavaFlow's enhancer): the loader route. */
    static String loaderClassPath() {
        return entries(e -> !e.contains("flow-maven-plugin") && !e.contains("flow-agent"));
    }

    private static String entries(java.util.function.Predicate<String> keep) {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> TESTS.stream().noneMatch(e.replace('\\', '/')::contains))
                .filter(e -> keep.test(e.replace('\\', '/')))
                .collect(Collectors.joining(File.pathSeparator));
    }

    /** A jar this build made, named by system property {@code property}. */
    static String jar(String property) {
        String jar = System.getProperty(property);
        if (jar == null || !new File(jar).isFile()) {
            throw new IllegalStateException(property + ": " + jar + " (expected: a jar this build made; run these tests in"
                    + " the integration-test phase, after package)");
        }
        return jar;
    }
}
