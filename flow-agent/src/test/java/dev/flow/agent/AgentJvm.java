package dev.flow.agent;

import flowtest.support.ChildJvm;
import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A child JVM started with {@code -javaagent:} the agent jar this build made, on a class path of the
 * application's side only: the test classes, flow-core, JavaFlow's api and SLF4J; not flow-classloader,
 * ASM or JavaFlow's enhancer, which the agent jar must bring.
 */
final class AgentJvm {

    private static final List<String> NOT_ON_CLASS_PATH = List.of("/org/ow2/asm/", "javaflow.spi", "javaflow.providers",
            "asmx", "junit", "opentest4j", "apiguardian", "surefire");

    private AgentJvm() {
    }

    /** The agent jar, built by this module's {@code package} phase. */
    static String agentJar() {
        String jar = System.getProperty("flow.agent.jar");
        if (jar == null || !new File(jar).isFile()) {
            throw new IllegalStateException("flow.agent.jar: " + jar + " (expected: the agent jar; run these tests in the"
                    + " integration-test phase, after package)");
        }
        return jar;
    }

    /** The application's class path: the test's, less the instrumentation side. */
    static String applicationClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> NOT_ON_CLASS_PATH.stream().noneMatch(e::contains))
                .filter(e -> !isLoaderMain(e))
                .collect(Collectors.joining(File.pathSeparator));
    }

    /** flow-classloader's main classes, or the agent's own before shading (its ASM is not relocated). */
    private static boolean isLoaderMain(String entry) {
        String e = entry.replace('\\', '/');
        return e.contains("/flow-agent/target/classes") || (e.contains("/flow-classloader/target/classes")
                || e.matches(".*/flow-classloader-[^/]*\\.jar")) && !e.endsWith("-tests.jar");
    }

    /** Runs {@code mainClass} with {@code -javaagent:<jar>=agentArgument} and waits up to 60 s. */
    static ChildJvm run(String agentArgument, String mainClass, String... args) throws IOException, InterruptedException {
        return run(List.of(), agentArgument, mainClass, args);
    }

    /**
     * {@link #run(String, String, String...)} with {@code jvmOptions} before the class path. Unless they set
     * {@code -Ddev.flow.loader.cache}, the class cache is off, so that every test instruments its classes
     * (as the loader's tests build their loaders without a cache).
     */
    static ChildJvm run(List<String> jvmOptions, String agentArgument, String mainClass, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add("-javaagent:" + agentJar() + (agentArgument == null ? "" : "=" + agentArgument));
        cmd.add("-Xmx256m");
        if (jvmOptions.stream().noneMatch(o -> o.startsWith("-Ddev.flow.loader.cache="))) {
            cmd.add("-Ddev.flow.loader.cache=off");
        }
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(applicationClassPath());
        cmd.add(mainClass);
        cmd.addAll(List.of(args));
        return ChildJvm.run(cmd, Duration.ofSeconds(60));
    }
}
