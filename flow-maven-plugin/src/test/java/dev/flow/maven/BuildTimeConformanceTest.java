package dev.flow.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.flow.loader.ContinuationClassLoader;
import dev.flow.loader.conformance.RouteConformance;
import flowtest.support.ChildJvm;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import java.util.function.Predicate;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The conformance suite through build-time instrumentation: the fixture packages of every category
 * ({@link RouteConformance#SUITES}), instrumented into a classes directory as the {@code instrument} goal
 * does, run in a JVM with only Flow's runtime jars; every case's verdict equals the class loader's for the
 * same scope and mode (about 20 s per mode on a loaded 2-core machine). The loader's verdicts are computed in
 * this JVM while the classes are instrumented and run.
 */
class BuildTimeConformanceTest {

    private static final List<String> SUITES = RouteConformance.SUITES;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "strict={0}")
    @ValueSource(booleans = {false, true})
    void everyCaseHasTheLoadersVerdictWhenInstrumentedAtBuildTime(boolean strict) throws Exception {
        List<String> scope = RouteConformance.packages(SUITES);
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include(scope.toArray(new String[0])).strict(strict)
                .build();
        FutureTask<Map<String, String>> loaders = RouteConformance.cellsMeanwhile(SUITES,
                name -> loader.newInstance(Callable.class, name));

        Path classes = dir.resolve("classes");
        for (String p : scope) {
            copyPackage(BuildTimeConformanceTest::isLoaderTests, p.replace('.', '/') + "/", classes);
        }
        List<Path> classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator)).map(Path::of)
                .collect(Collectors.toList());
        new BuildTime(classes, dir.resolve("originals"), classPath, scope, List.of(), strict).run(true);

        String runtime = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> (e.contains("flow-core") && !e.contains("tests")) || e.contains("javaflow.api")
                        || e.contains("slf4j-api") || e.contains("slf4j-nop") || e.contains("junit-jupiter-api")
                        || isLoaderTests(e) || isMina(e))
                .collect(Collectors.joining(File.pathSeparator));
        List<String> cmd = new ArrayList<>(List.of("-Xmx256m", "-cp", classes + File.pathSeparator + runtime,
                RouteConformance.class.getName()));
        cmd.addAll(SUITES);
        ChildJvm jvm = ChildJvm.run(cmd, Duration.ofSeconds(90));
        Map<String, String> expected = loaders.get();
        assertEquals("DONE " + expected.size(), jvm.line("DONE"), jvm.output());
        assertEquals(List.of(), RouteConformance.differences(expected, RouteConformance.parse(jvm.lines)));
    }

    /**
     * Flow's MINA transport and MINA, on the class path the classes were instrumented with: its suspension points
     * (the socket constructors among them) were applied, so the classes run with it, as the loader's do here.
     */
    static boolean isMina(String entry) {
        String e = entry.replace('\\', '/');
        return e.matches(".*/flow-mina-transport-[^/]*(?<!-tests)\\.jar") || e.endsWith("/flow-mina-transport/target/classes")
                || e.matches(".*/mina-core-[^/]*\\.jar");
    }

    static boolean isLoaderTests(String entry) {
        String e = entry.replace('\\', '/');
        return e.contains("/flow-classloader/target/test-classes") || e.matches(".*/flow-classloader-[^/]*-tests\\.jar");
    }

    /** Copies the class files under {@code path} from the class path entries (directories or jars) {@code from} accepts. */
    static void copyPackage(Predicate<String> from, String path, Path to) throws IOException {
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!from.test(e)) {
                continue;
            }
            Path source = Path.of(e);
            if (Files.isDirectory(source)) {
                if (!Files.isDirectory(source.resolve(path))) {
                    continue;
                }
                try (Stream<Path> s = Files.walk(source.resolve(path))) {
                    for (Path f : s.filter(Files::isRegularFile).collect(Collectors.toList())) {
                        Path target = to.resolve(source.relativize(f).toString());
                        Files.createDirectories(target.getParent());
                        Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            } else {
                try (JarFile jar = new JarFile(source.toFile())) {
                    for (Enumeration<JarEntry> en = jar.entries(); en.hasMoreElements();) {
                        JarEntry j = en.nextElement();
                        if (j.getName().startsWith(path) && !j.isDirectory()) {
                            Path target = to.resolve(j.getName());
                            Files.createDirectories(target.getParent());
                            try (InputStream in = jar.getInputStream(j)) {
                                Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                            }
                        }
                    }
                }
            }
        }
    }
}
