package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import flowtest.ccl.FindsItsService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A flow of a task loaded through the loader runs with the task's loader as its thread's context class
 * loader, as the same class loaded normally does on a plain thread: a library that finds its providers through
 * {@code ServiceLoader} and the context class loader (Jakarta Mail) finds the in-scope ones, never the
 * parent's copies. A context class loader the flow sets follows it across suspensions and workers; the
 * workers' own is back after each flow.
 */
class ContextClassLoaderTest {

    @ParameterizedTest(name = "strict={0}")
    @ValueSource(booleans = {false, true})
    void aLoadedFlowSeesItsLoaderAsContextClassLoaderAndFindsItsInScopeServices(boolean strict) throws Exception {
        String sync = String.valueOf(new FindsItsService().call());
        assertEquals("true hello | 0 true hello | 1 true hello | 2 true hello | set true | true hello", sync);
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.ccl").strict(strict).build();
        ClassLoader workers = Thread.currentThread().getContextClassLoader();
        try (FlowScheduler s = FlowScheduler.builder().workers(2).policy(SuspendPolicy.immediately()).name("ccl").build()) {
            List<FlowHandle<Object>> flows = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                flows.add(s.submit(loader.newInstance(Callable.class, "flowtest.ccl.FindsItsService")));
            }
            for (FlowHandle<Object> f : flows) {
                assertEquals(sync, f.get(Duration.ofSeconds(10)));
            }
            assertTrue(s.stats().resumed() >= 8, () -> "the flows suspended: " + s.stats());
            Callable<ClassLoader> plain = () -> Thread.currentThread().getContextClassLoader();
            for (int i = 0; i < 4; i++) {
                assertSame(workers, s.submit(plain).get(Duration.ofSeconds(10)), "a worker's own context class loader");
            }
            TestSupport.awaitIdle(s);
        }
    }
}
