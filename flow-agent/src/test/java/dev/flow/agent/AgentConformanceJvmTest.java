package dev.flow.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.flow.loader.ContinuationClassLoader;
import dev.flow.loader.conformance.RouteConformance;
import flowtest.support.ChildJvm;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The conformance suite through the agent: every case's verdict in a JVM started with {@code
 * -javaagent:...=include=<the categories' packages>} equals the class loader's for the same scope and
 * mode, for every category ({@link RouteConformance#SUITES}; about 20 s per mode on a loaded 2-core machine). The
 * loader's verdicts are computed in this JVM while the agent's JVM runs.
 */
class AgentConformanceJvmTest {

    private static final List<String> SUITES = RouteConformance.SUITES;

    @ParameterizedTest(name = "strict={0}")
    @ValueSource(booleans = {false, true})
    void everyCaseHasTheLoadersVerdictUnderTheAgent(boolean strict) throws Exception {
        List<String> scope = RouteConformance.packages(SUITES);
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include(scope.toArray(new String[0])).strict(strict)
                .build();
        FutureTask<Map<String, String>> loaders = RouteConformance.cellsMeanwhile(SUITES,
                name -> loader.newInstance(Callable.class, name));
        ChildJvm jvm = AgentJvm.run("include=" + String.join(",", scope) + (strict ? ";strict" : ""),
                RouteConformance.class.getName(), SUITES.toArray(new String[0]));
        Map<String, String> expected = loaders.get();
        assertEquals("DONE " + expected.size(), jvm.line("DONE"), jvm.output());
        assertEquals(List.of(), RouteConformance.differences(expected, RouteConformance.parse(jvm.lines)));
    }
}
