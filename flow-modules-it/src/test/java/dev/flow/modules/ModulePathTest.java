package dev.flow.modules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import flowtest.support.ChildJvm;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flow's jars are named modules: a small application compiled against them on the module path runs a flow in
 * continuation mode there ({@code java --module-path ... -m app/app.Main} in a child JVM), the {@code internal}
 * packages stay unexported, and each jar keeps its {@code Automatic-Module-Name}.
 */
class ModulePathTest {

    /** One class of each jar the application needs, to find the jar on this test's class path. */
    private static final List<String> MODULE_PATH_CLASSES = List.of(
            "dev.flow.FlowScheduler", "dev.flow.loader.ContinuationClassLoader", "dev.flow.mina.FlowServer",
            "org.apache.commons.javaflow.core.StackRecorder", "org.apache.commons.javaflow.spi.ResourceTransformer",
            "org.apache.commons.javaflow.providers.core.ContinuableClassTransformationFactory",
            "net.tascalate.asmx.ClassReader", "net.tascalate.asmx.tree.ClassNode", "net.tascalate.asmx.plus.AsmVersion",
            "net.tascalate.asmx.tree.analysis.Analyzer", "org.objectweb.asm.ClassReader", "org.objectweb.asm.tree.ClassNode",
            "org.objectweb.asm.tree.analysis.Analyzer", "org.objectweb.asm.commons.Remapper",
            "org.slf4j.Logger", "org.apache.mina.core.session.IoSession");

    private static final String MODULE_INFO = String.join("\n",
            "module app {",
            "    requires dev.flow.loader;",
            "    requires dev.flow.mina;",
            "    uses dev.flow.spi.AwaitableAdapter;",
            "}");

    private static final String MAIN = String.join("\n",
            "package app;",
            "import dev.flow.FlowScheduler;",
            "import dev.flow.loader.ContinuationClassLoader;",
            "import dev.flow.spi.AwaitableAdapter;",
            "import java.time.Duration;",
            "import java.util.ServiceLoader;",
            "import java.util.concurrent.Callable;",
            "public final class Main {",
            "    public static void main(String[] args) throws Exception {",
            "        ContinuationClassLoader loader = ContinuationClassLoader.builder().include(\"app.proto\").build();",
            "        try (FlowScheduler s = FlowScheduler.builder().workers(1).name(\"app\").build()) {",
            "            Callable<?> task = loader.newInstance(Callable.class, \"app.proto.Pinger\");",
            "            Object r = s.submit(task).get(Duration.ofSeconds(30));",
            "            StringBuilder adapters = new StringBuilder();",
            "            for (AwaitableAdapter a : ServiceLoader.load(AwaitableAdapter.class)) {",
            "                adapters.append(a.getClass().getName());",
            "            }",
            "            System.out.println(\"result=\" + r + \" core=\" + FlowScheduler.class.getModule().getName()",
            "                    + \" loader=\" + ContinuationClassLoader.class.getModule().getName()",
            "                    + \" mina=\" + org.apache.mina.core.future.IoFuture.class.getModule().getName()",
            "                    + \" adapters=\" + adapters + \" resumed=\" + s.stats().resumed());",
            "        }",
            "    }",
            "}");

    /**
     * Suspends twice, on CompletableFutures another thread completes once they are awaited (completed 20
     * ms after they were made, they could be done before a cold flow on a loaded machine reached its join:
     * then it never suspended).
     */
    private static final String PINGER = String.join("\n",
            "package app.proto;",
            "import java.util.concurrent.Callable;",
            "import java.util.concurrent.CompletableFuture;",
            "import java.util.concurrent.TimeUnit;",
            "public final class Pinger implements Callable<Object> {",
            "    @Override",
            "    public Object call() {",
            "        return onceAwaited(\"po\").join() + onceAwaited(\"ng\").join();",
            "    }",
            "    private static CompletableFuture<String> onceAwaited(String value) {",
            "        CompletableFuture<String> f = new CompletableFuture<>();",
            "        Thread t = new Thread(() -> {",
            "            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);",
            "            while (f.getNumberOfDependents() == 0 && System.nanoTime() - deadline < 0) {",
            "                Thread.onSpinWait();",
            "                Thread.yield();",
            "            }",
            "            f.complete(value);",
            "        });",
            "        t.setDaemon(true);",
            "        t.start();",
            "        return f;",
            "    }",
            "}");

    @TempDir
    Path dir;

    @Test
    void anApplicationOnTheModulePathRunsAFlowInContinuationMode() throws Exception {
        Path out = compile(MODULE_INFO, "package app.proto; public final class Unused {}");
        assertTrue(Files.exists(out.resolve("module-info.class")));
        Path app = compileApp();
        String modulePath = app + File.pathSeparator + modulePath();
        // The opens the README gives, so that the loader uses JavaFlow's engine parts rather than its shared cache.
        List<String> command = List.of("-Xmx128m", "--module-path", modulePath,
                "--add-opens", "net.tascalate.javaflow.providers.core/org.apache.commons.javaflow.providers.core=dev.flow.loader",
                "--add-opens", "net.tascalate.javaflow.api/org.apache.commons.javaflow.core=dev.flow.core",
                "-m", "app/app.Main");
        ChildJvm r = ChildJvm.run(command, Duration.ofSeconds(60));
        assertEquals(0, r.exitCode, () -> "exit code of java " + command + ":\n" + r.output());
        assertTrue(r.output().contains("result=pong core=dev.flow.core loader=dev.flow.loader mina=org.apache.mina.core"
                + " adapters=dev.flow.mina.MinaIoFutureAdapter"), () -> "the flow ran, with Flow as named modules:\n" + r.output());
        Matcher resumed = Pattern.compile("resumed=(\\d+)").matcher(r.output());
        assertTrue(resumed.find() && Integer.parseInt(resumed.group(1)) > 0,
                () -> "the flow suspended and was resumed (a flow that blocked its worker is never resumed):\n" + r.output());
        assertFalse(r.output().contains("not accessible"), r.output());
    }

    @Test
    void theInternalPackagesAreNotExportedToApplications() throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        Path src = sources(MODULE_INFO, "package app; public final class Main { Object o = dev.flow.internal.Pins.NO_FLOW; }");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = javac.run(null, null, err, args(src, dir.resolve("bad-out")));
        String text = err.toString(StandardCharsets.UTF_8);
        assertNotEquals(0, rc, text);
        assertTrue(text.contains("package dev.flow.internal is declared in module dev.flow.core, which does not export it"),
                text);
    }

    @Test
    void eachJarIsANamedModuleWithItsAutomaticModuleNameKept() throws Exception {
        assertDescriptor("dev.flow.FlowScheduler", "dev.flow.core", Set.of("dev.flow", "dev.flow.jdk", "dev.flow.spi"));
        assertDescriptor("dev.flow.loader.ContinuationClassLoader", "dev.flow.loader", Set.of("dev.flow.loader"));
        assertDescriptor("dev.flow.mina.FlowServer", "dev.flow.mina", Set.of("dev.flow.mina"));
    }

    @Test
    void theAgentJarIsTheAutomaticModuleDevFlowAgent() throws Exception {
        Path agent = jarOf("dev.flow.agent.FlowAgent");
        ModuleReference m = ModuleFinder.of(agent).findAll().iterator().next();
        assertEquals("dev.flow.agent", m.descriptor().name());
        assertTrue(m.descriptor().isAutomatic(), "it bundles the loader (shaded): an automatic module, used through -javaagent");
        try (JarFile jar = new JarFile(agent.toFile())) {
            assertEquals("dev.flow.agent.FlowAgent", jar.getManifest().getMainAttributes().getValue("Launcher-Agent-Class"));
        }
    }

    @Test
    void theBomManagesEveryPublishedFlowArtifactAtTheProjectVersion() throws Exception {
        String bom = Files.readString(Path.of(System.getProperty("flow.bom")));
        String parent = Files.readString(Path.of(System.getProperty("flow.parent")));
        assertTrue(parent.contains("<module>flow-bom</module>"), "the parent builds the BOM");
        assertFalse(bom.contains("<parent>"), "the BOM does not inherit the parent's third-party pins");
        for (String artifact : List.of("flow-core", "flow-classloader", "flow-mina-transport", "flow-agent", "flow-maven-plugin")) {
            assertTrue(parent.contains("<module>" + artifact + "</module>"), artifact + " is a module of the parent");
            assertTrue(bom.contains("<artifactId>" + artifact + "</artifactId>\n        <version>${project.version}</version>"),
                    artifact + " at the project version");
        }
        String version = parent.split("<artifactId>flow-parent</artifactId>\\s*<version>")[1].split("<")[0];
        assertTrue(bom.contains("<artifactId>flow-bom</artifactId>\n  <version>" + version + "</version>"), "BOM version " + version);
    }

    private static void assertDescriptor(String className, String name, Set<String> exports) throws Exception {
        Path jar = jarOf(className);
        ModuleDescriptor d = ModuleFinder.of(jar).findAll().iterator().next().descriptor();
        assertEquals(name, d.name(), jar.toString());
        assertFalse(d.isAutomatic(), () -> jar + " has a module-info.class");
        Set<String> unqualified = d.exports().stream().filter(e -> !e.isQualified()).map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toSet());
        assertEquals(exports, unqualified, jar.toString());
        try (JarFile j = new JarFile(jar.toFile())) {
            assertEquals(name, j.getManifest().getMainAttributes().getValue("Automatic-Module-Name"), "kept for " + jar);
        }
    }

    private Path compileApp() throws IOException {
        Path out = dir.resolve("app-out");
        Path src = sources(MODULE_INFO, MAIN, PINGER);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, err, args(src, out));
        assertEquals(0, rc, () -> err.toString(StandardCharsets.UTF_8));
        return out;
    }

    private Path compile(String... units) throws IOException {
        Path out = dir.resolve("out-" + units.length);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, err, args(sources(units), out));
        assertEquals(0, rc, () -> err.toString(StandardCharsets.UTF_8));
        return out;
    }

    private String[] args(Path src, Path out) throws IOException {
        // An empty class path: without one, javac in this JVM takes the test's class path, where Flow's
        // packages are in the unnamed module too. JDK 25's javac then reported dev.flow.internal as
        // "declared in the unnamed module" every time once 7d046f2 had changed the Pinger app (why that
        // changes javac's choice was not found); the application is compiled against the module path only.
        Path noClasses = Files.createDirectories(dir.resolve("no-classes"));
        List<String> a = new ArrayList<>(List.of("--release", "17", "--module-path", modulePath(),
                "--class-path", noClasses.toString(), "-d", out.toString()));
        try (var files = Files.walk(src)) {
            files.filter(p -> p.toString().endsWith(".java")).forEach(p -> a.add(p.toString()));
        }
        return a.toArray(new String[0]);
    }

    /** Writes each unit under a fresh source folder, at the path its package and first type name give. */
    private Path sources(String... units) throws IOException {
        Path src = Files.createTempDirectory(dir, "src");
        for (String unit : units) {
            Path file;
            if (unit.startsWith("module ")) {
                file = src.resolve("module-info.java");
            } else {
                String pkg = unit.substring("package ".length(), unit.indexOf(';'));
                String type = unit.split("(class|interface) ")[1].split("[ {<]")[0];
                file = src.resolve(pkg.replace('.', '/')).resolve(type + ".java");
            }
            Files.createDirectories(file.getParent());
            Files.writeString(file, unit);
        }
        return src;
    }

    private static String modulePath() {
        Set<String> jars = new LinkedHashSet<>();
        for (String c : MODULE_PATH_CLASSES) {
            jars.add(jarOf(c).toString());
        }
        return String.join(File.pathSeparator, jars);
    }

    private static Path jarOf(String className) {
        try {
            Class<?> c = Class.forName(className, false, ModulePathTest.class.getClassLoader());
            Path p = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (!className.startsWith("dev.flow.agent.")) {
                assertFalse(p.getFileName().toString().startsWith("flow-agent"), () -> className + " found in the agent jar: " + p);
            }
            return p;
        } catch (ClassNotFoundException | URISyntaxException e) {
            throw new AssertionError(className, e);
        }
    }
}
