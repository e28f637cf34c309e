package dev.flow.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import flowtest.support.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The agent keeps the final class files in the loader's class cache, with the loader's rules: a second
 * JVM over the same class path defines them from there without analysing or instrumenting anything.
 * The cache directories are under this module's {@code target/} (the {@code XDG_CACHE_HOME} surefire
 * gives the tests), never the machine's.
 */
class AgentCacheJvmTest {

    private static final String MAIN = AgentChild.class.getName();
    private static final String INCLUDE = "include=flowtest.agent,flowtest.fixtures";
    private static final String[] FIXTURES = {"flowtest.fixtures.DeepChain", "flowtest.fixtures.SynchronizedBlock",
        "flowtest.fixtures.ForEachCallback", "flowtest.fixtures.Reflective"};
    /** The analysis; a JVM that loads it analysed a scope. */
    private static final String ANALYSIS = "dev.flow.loader.internal.Instrumenter ";

    /** A new directory under the tests' cache home (in {@code target/}). */
    private static Path fresh(String name) throws IOException {
        String home = System.getenv("XDG_CACHE_HOME");
        assertTrue(home != null && home.contains("target"), "XDG_CACHE_HOME in target/ (surefire's configuration): " + home);
        Path dir = Path.of(home, "agent-cache-test", name + "-" + System.nanoTime());
        Files.createDirectories(dir.getParent());
        return dir;
    }

    private static ChildJvm run(List<String> jvmOptions, String argument) throws Exception {
        List<String> options = new ArrayList<>(jvmOptions);
        options.add("-Xlog:class+load=info");
        ChildJvm jvm = AgentJvm.run(options, argument, MAIN, FIXTURES);
        assertEquals(0, jvm.exitCode, jvm::output);
        assertEquals("IDLE true", jvm.line("IDLE"), jvm::output);
        return jvm;
    }

    private static boolean analysed(ChildJvm jvm) {
        return jvm.lines.stream().anyMatch(l -> l.contains(ANALYSIS));
    }

    /** What the fixtures did and the pin warnings, without the resumption counts (timing). */
    private static List<String> outcomes(ChildJvm jvm) {
        return jvm.lines.stream().filter(l -> l.startsWith("OUTCOME ") || l.startsWith("WARNING ") || l.startsWith("DIRECT "))
                .map(l -> l.replaceAll(" resumed=\\d+$", "")).sorted().collect(Collectors.toList());
    }

    private static long files(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return 0;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).count();
        }
    }

    @Test
    void secondJvmWithAWarmCacheDefinesTheClassesWithoutAnalysingThem() throws Exception {
        Path dir = fresh("property");
        List<String> property = List.of("-Ddev.flow.loader.cache=" + dir);
        ChildJvm cold = run(property, INCLUDE);
        assertTrue(analysed(cold), "the first JVM analyses: " + cold.output());
        assertTrue(files(dir) > FIXTURES.length, "entries written in " + dir);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        ChildJvm warm = run(property, INCLUDE);
        assertFalse(analysed(warm), "the second JVM analysed or instrumented again: " + warm.output());
        assertTrue(warm.line("flow-agent: " + INCLUDE + ": ").endsWith(" classes in scope (from the class cache "
                + Files.list(dir).findFirst().orElseThrow() + ")"), warm::output);
        assertEquals(outcomes(cold), outcomes(warm));
        assertTrue(outcomes(warm).stream().anyMatch(l -> l.startsWith("WARNING cannot suspend at flowtest.fixtures.Reflective")),
                warm::output);
        ChildJvm strict = run(property, INCLUDE + ";strict");
        assertTrue(analysed(strict), "strict is another key: " + strict.output());
    }

    @Test
    void cacheOptionChoosesTheDirectoryAndOffWinsOverTheProperty() throws Exception {
        Path dir = fresh("option");
        Path property = fresh("unused");
        run(List.of("-Ddev.flow.loader.cache=" + property), INCLUDE + ";cache=" + dir);
        assertTrue(files(dir) > FIXTURES.length, "entries written in " + dir);
        assertEquals(0, files(property), "the option wins over the property");
        ChildJvm warm = run(List.of(), INCLUDE + ";cache=" + dir);
        assertFalse(analysed(warm), warm::output);
        ChildJvm off = run(List.of("-Ddev.flow.loader.cache=" + dir), INCLUDE + ";cache=off");
        assertTrue(analysed(off), "cache=off analyses: " + off.output());
        ChildJvm offByProperty = run(List.of("-Ddev.flow.loader.cache=off"), INCLUDE);
        assertTrue(analysed(offByProperty), offByProperty::output);
    }

    @Test
    void directoryOthersCanWriteIsNotUsedAndSaysWhyOnce() throws Exception {
        Path open = Files.createDirectories(fresh("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        ChildJvm jvm = run(List.of(), INCLUDE + ";cache=" + open);
        assertTrue(analysed(jvm), jvm::output);
        assertEquals(List.of("flow-agent: class cache off: " + open + " is not used because it is writable by others than its"
                + " owner (rwxrwxrwx); classes are instrumented as without a cache (choose another directory with"
                + " -Ddev.flow.loader.cache=<dir>, or turn the cache off with -Ddev.flow.loader.cache=off)"),
                jvm.lines.stream().filter(l -> l.contains("class cache off")).collect(Collectors.toList()), jvm::output);
        assertEquals(0, files(open), "nothing written there");
        assertTrue(jvm.line("OUTCOME flowtest.fixtures.DeepChain").startsWith("OUTCOME flowtest.fixtures.DeepChain = 87"),
                jvm::output);
    }
}
