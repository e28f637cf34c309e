package dev.flow.maven;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import flowtest.support.ChildJvm;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The goals run directly on compiled fixture classes (a copy of {@code flowtest.plugin} and {@code
 * flowtest.pluginmain} from the test classes, as a project's {@code target/classes}), without Maven
 * around them; the instrumented classes then run in a JVM of their own with only Flow's runtime jars.
 */
class BuildTimeTest {

    private static final Path TEST_CLASSES = Path.of("target", "test-classes");
    private static final List<String> SITES = List.of(
            "flowtest.plugin.Pinned.call(Pinned.java:15): a synchronized block holds a monitor",
            "flowtest.plugin.Pinned.lambda$call$0(Pinned.java:18): it is called back through an uninstrumented frame (a JDK or"
                    + " out-of-scope caller)",
            "flowtest.plugin.Pinned.call(Pinned.java:19): reflective calls cannot be captured",
            "3 pin sites");

    @TempDir
    Path dir;

    @Test
    void verifyPrintsEachPinSiteInStackTraceStyleThenTheirNumber() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        VerifyMojo verify = configure(new VerifyMojo(), false);
        verify.out = new PrintStream(out, true, StandardCharsets.UTF_8);
        verify.execute();
        assertEquals(SITES, List.of(out.toString(StandardCharsets.UTF_8).split("\\R")));
    }

    @Test
    void strictVerifyFailsTheBuildOnAnyPinSite() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        VerifyMojo verify = configure(new VerifyMojo(), true);
        verify.out = new PrintStream(out, true, StandardCharsets.UTF_8);
        MojoFailureException e = assertThrows(MojoFailureException.class, verify::execute);
        assertEquals("3 pin sites (expected: none with <strict>true</strict>)", e.getMessage());
        assertEquals(SITES, List.of(out.toString(StandardCharsets.UTF_8).split("\\R")));
    }

    @Test
    void anIncludeMatchingNoClassFailsTheBuildNamingIt() throws Exception {
        VerifyMojo verify = configure(new VerifyMojo(), false);
        verify.includes = List.of("flowtest.nothing");
        MojoFailureException e = assertThrows(MojoFailureException.class, verify::execute);
        assertTrue(e.getMessage().startsWith("includes: flowtest.nothing matches no class in "), e.getMessage());
    }

    @Test
    void instrumentedClassesRunSuspendedWithOnlyFlowsRuntimeJarsAndASecondRunChangesNothing() throws Exception {
        InstrumentMojo instrument = configure(new InstrumentMojo(), false);
        instrument.execute();
        Path task = instrument.classesDirectory.toPath().resolve("flowtest/plugin/Task.class");
        byte[] first = Files.readAllBytes(task);
        instrument.execute();
        assertArrayEquals(first, Files.readAllBytes(task), "a second run instruments the originals again, not its output");

        Path jar = jar(instrument.classesDirectory.toPath());
        List<String> lines = run(jar + File.pathSeparator + runtimeClassPath(), "flowtest.pluginmain.Main");
        String out = String.join("\n", lines);
        assertTrue(lines.contains("TASK suspended=1"), out);
        assertTrue(lines.contains("TASK = got x"), out);
        assertTrue(lines.contains("PINNED = 8"), out);
        assertTrue(lines.contains("IDLE true"), out);
        assertEquals(3, lines.stream().filter(l -> l.startsWith("WARNING cannot suspend at flowtest.plugin.Pinned.")).count(), out);
    }

    private <T extends AbstractFlowMojo> T configure(T mojo, boolean strict) throws IOException {
        Path classes = dir.resolve("classes");
        for (String pkg : List.of("flowtest/plugin", "flowtest/pluginmain")) {
            Files.createDirectories(classes.resolve(pkg));
            try (Stream<Path> s = Files.list(TEST_CLASSES.resolve(pkg))) {
                for (Path f : s.collect(Collectors.toList())) {
                    Files.copy(f, classes.resolve(pkg).resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        mojo.includes = List.of("flowtest.plugin");
        mojo.strict = strict;
        mojo.classesDirectory = classes.toFile();
        mojo.originalsDirectory = dir.resolve("flow-original-classes").toFile();
        mojo.classpathElements = List.of(runtimeClassPath().split(File.pathSeparator));
        return mojo;
    }

    /** flow-core, JavaFlow's api and SLF4J, from this test's class path. */
    private static String runtimeClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> (e.contains("flow-core") && !e.contains("tests")) || e.contains("javaflow.api")
                        || e.contains("slf4j-api") || e.contains("slf4j-nop") || BuildTimeConformanceTest.isLoaderTests(e))
                .collect(Collectors.joining(File.pathSeparator));
    }

    private Path jar(Path classes) throws IOException {
        Path jar = dir.resolve("app.jar");
        try (OutputStream o = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(o);
             Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).collect(Collectors.toList())) {
                j.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                j.write(Files.readAllBytes(f));
                j.closeEntry();
            }
        }
        return jar;
    }

    private static List<String> run(String classPath, String mainClass) throws IOException, InterruptedException {
        return ChildJvm.run(List.of("-Xmx128m", "-cp", classPath, mainClass), Duration.ofSeconds(60)).lines;
    }
}
