package dev.flow.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import flowtest.support.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.ToolProvider;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent in a JVM of its own, started with {@code -javaagent:flow-agent.jar=...}. */
class AgentJvmTest {

    private static final String MAIN = AgentChild.class.getName();
    private static final String[] FIXTURES = {"flowtest.fixtures.DeepChain", "flowtest.fixtures.SynchronizedBlock",
        "flowtest.fixtures.ForEachCallback", "flowtest.fixtures.Reflective"};

    @Test
    void classesLoadedNormallySuspendAndPinWithTheLoadersWarnings() throws Exception {
        ChildJvm jvm = AgentJvm.run("include=flowtest.agent,flowtest.fixtures", MAIN, FIXTURES);
        String out = jvm.output();
        assertEquals(0, jvm.exitCode, out);
        assertEquals("DIRECT suspended=1", jvm.line("DIRECT"), out);
        assertEquals("OUTCOME flowtest.agent.Direct = got x", jvm.line("OUTCOME flowtest.agent.Direct"), out);
        assertTrue(jvm.line("OUTCOME flowtest.fixtures.DeepChain = 87 resumed=").compareTo("OUTCOME flowtest.fixtures.DeepChain"
                + " = 87 resumed=0") > 0, out);
        assertEquals("OUTCOME flowtest.fixtures.SynchronizedBlock = 6 resumed=1", jvm.line("OUTCOME flowtest.fixtures.Sync"), out);
        assertEquals("OUTCOME flowtest.fixtures.ForEachCallback = 6 resumed=0", jvm.line("OUTCOME flowtest.fixtures.ForEach"), out);
        assertEquals("OUTCOME flowtest.fixtures.Reflective = 6 resumed=0", jvm.line("OUTCOME flowtest.fixtures.Reflective"), out);
        for (String site : List.of("flowtest.fixtures.SynchronizedBlock.call()Ljava/lang/Object; (line 14): a synchronized block",
                "flowtest.fixtures.Reflective.call()Ljava/lang/Object; (line 14): reflective calls",
                "flowtest.fixtures.ForEachCallback.lambda$call$0(Ljava/lang/Integer;)V (line 13): it is called back")) {
            assertEquals(1, jvm.lines.stream().filter(l -> l.startsWith("WARNING cannot suspend at " + site)).count(), out);
        }
        assertEquals("IDLE true", jvm.line("IDLE"), out);
    }

    @Test
    void strictRefusesByTheSiteTheLoaderRefuses() throws Exception {
        ChildJvm jvm = AgentJvm.run("include=flowtest.agent,flowtest.fixtures;strict", MAIN, FIXTURES);
        String out = jvm.output();
        assertEquals(0, jvm.exitCode, out);
        assertEquals("OUTCOME flowtest.agent.Direct = got x", jvm.line("OUTCOME flowtest.agent.Direct"), out);
        assertTrue(jvm.line("OUTCOME flowtest.fixtures.DeepChain").startsWith("OUTCOME flowtest.fixtures.DeepChain = 87"), out);
        for (String f : List.of("SynchronizedBlock", "ForEachCallback", "Reflective")) {
            String line = jvm.line("OUTCOME flowtest.fixtures." + f);
            assertTrue(line.contains("threw dev.flow.UnsuspendableFrameException: cannot suspend at flowtest.fixtures." + f), out);
        }
        assertEquals("IDLE true", jvm.line("IDLE"), out);
    }

    @Test
    void aMethodTheEngineCannotInstrumentRunsAsCompiledWithItsSitesReportedWhenLenient() throws Exception {
        ChildJvm jvm = AgentJvm.run("include=flowtest.agent,flowtest.refused", MAIN, "load:flowtest.refused.Huge");
        String out = jvm.output();
        assertEquals("LOAD flowtest.refused.Huge loaded", jvm.line("LOAD"), out);
        assertEquals(300, jvm.lines.stream().filter(l -> l.startsWith("WARNING cannot suspend at flowtest.refused.Huge.run")
                && l.contains("method too large after instrumentation")).count(), out);
    }

    @Test
    void aMethodTheEngineCannotInstrumentRefusesItsClassWhenStrict() throws Exception {
        ChildJvm jvm = AgentJvm.run("include=flowtest.agent,flowtest.refused;strict", MAIN, "load:flowtest.refused.Huge");
        String out = jvm.output();
        String load = jvm.line("LOAD");
        assertTrue(load.startsWith("LOAD flowtest.refused.Huge threw java.lang.ExceptionInInitializerError caused by"
                + " dev.flow.loader.InstrumentationException: cannot instrument flowtest.refused.Huge.run("), out);
        assertTrue(load.contains("method too large after instrumentation"), out);
        assertTrue(out.contains("flow-agent: refused flowtest.refused.Huge: cannot instrument flowtest.refused.Huge.run("), out);
    }

    /**
     * Classes that only another class loader defines (a {@code URLClassLoader} over a directory the class path
     * does not hold, as a Spring Boot jar's or an application server's loader): without {@code anyloader} the
     * JVM stops at start-up, naming the option; with it the loader's scope is analysed when it first defines an
     * included class, its flows suspend, and an include no loader had is reported at exit.
     */
    @Test
    void classesOnlyAnotherLoaderDefinesSuspendWithAnyLoaderAndAnIncludeNoLoaderHadIsReportedAtExit(@TempDir Path dir)
            throws Exception {
        Path source = dir.resolve("src/flowtest/elsewhere/Waits.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "package flowtest.elsewhere;\n"
                + "import java.util.concurrent.*;\n"
                + "public class Waits implements Callable<String> {\n"
                + "    public static final CompletableFuture<String> GATE = new CompletableFuture<>();\n"
                + "    public String call() {\n"
                + "        return GATE.join();\n"
                + "    }\n"
                + "}\n");
        Path classes = dir.resolve("classes");
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), source.toString()));

        ChildJvm refused = AgentJvm.run("include=flowtest.elsewhere", OtherLoaderChild.class.getName(), classes.toString(),
                "flowtest.elsewhere.Waits");
        assertNotEquals(0, refused.exitCode, refused.output());
        assertTrue(refused.output().contains("flow-agent: include=flowtest.elsewhere matches no class on the class path"
                + " (expected: a package whose classes the application's class path holds; for classes that only another class"
                + " loader defines, such as a Spring Boot jar's or an application server's, add ;anyloader)"), refused.output());

        ChildJvm jvm = AgentJvm.run("include=flowtest.elsewhere,flowtest.typo;anyloader", OtherLoaderChild.class.getName(),
                classes.toString(), "flowtest.elsewhere.Waits");
        String out = jvm.output();
        assertEquals(0, jvm.exitCode, out);
        assertEquals("OUTCOME waited resumed=1", jvm.line("OUTCOME"), out);
        assertTrue(jvm.line("flow-agent: include=flowtest.elsewhere,flowtest.typo;anyloader: 1 classes in scope of"
                + " java.net.URLClassLoader@") != null, out);
        assertEquals(List.of("flow-agent: include=flowtest.typo matched no class in any class loader (expected: a package of"
                + " the application's classes)"), jvm.lines.stream().filter(l -> l.contains("matched no class")).collect(
                        java.util.stream.Collectors.toList()), out);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
        "''|flow-agent: no argument (expected: include=<package>",
        "inclde=flowtest.agent|flow-agent: option \"inclde=flowtest.agent\" in \"inclde=flowtest.agent\" (expected: include=<packages>, exclude=<packages>, strict, anyloader, cache=<directory> or cache=off)",
        "include=flowtest.agent;strikt|flow-agent: option \"strikt\" in \"include=flowtest.agent;strikt\" (expected:",
        "include=|flow-agent: \"include=\" in \"include=\" names no package (expected: include=com.example.proto",
        "include=flowtest..agent|flow-agent: include: \"flowtest..agent\" (expected: a package name such as com.example.protocol)",
        "include=flowtest.agent;anyloader=yes|flow-agent: option \"anyloader=yes\" in \"include=flowtest.agent;anyloader=yes\" (expected: anyloader, without a value)",
        "include=flowtest.agent;cache=|flow-agent: option \"cache=\" in \"include=flowtest.agent;cache=\" (expected: cache=<directory> or cache=off, once)",
        "include=flowtest.nothing|flow-agent: include=flowtest.nothing matches no class on the class path (expected:"})
    void aBadArgumentStopsTheJvmAtStartUpNamingItAndWhatWasExpected(String argument, String message) throws Exception {
        ChildJvm jvm = AgentJvm.run(argument.isEmpty() ? null : argument, MAIN);
        String out = jvm.output();
        assertNotEquals(0, jvm.exitCode, out);
        assertTrue(out.contains(message), out);
        assertEquals(null, jvm.line("DIRECT"), out);
    }
}
