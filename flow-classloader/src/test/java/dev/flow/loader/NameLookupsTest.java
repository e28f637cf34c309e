package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.internal.NameLookups;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Loaded code's name lookups in a flow ask the resolver on Flow's lookup threads, not on the flow's worker: each
 * fixture of {@code flowtest.conformance.network} (whose results {@code NetworkConformanceTest} compares) run as a
 * strict flow makes as many lookups there as it asks the resolver for, and run loaded on a plain thread none.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NameLookupsTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private ContinuationClassLoader strict;
    private FlowScheduler scheduler;

    @BeforeAll
    void start() {
        strict = ContinuationClassLoader.builder().include("flowtest.conformance.network").strict(true).build();
        scheduler = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("lookups").build();
    }

    @AfterAll
    void stop() {
        scheduler.close();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({
        "LookupByName, 1", "LookupAllByName, 1", "LookupLocalHost, 1", "ReverseLookupHostName, 1",
        "CanonicalHostName, 2", "SocketAddressResolves, 1", "SocketAddressReverseLookup, 1",
        "UnknownNamesAreNotFound, 3", "LiteralsAreNotLookedUp, 0", "SocketAddressArgumentsAreChecked, 0"})
    void aFlowsLookupsThatAskTheResolverRunOnLookupThreadsAndAPlainThreadsInPlace(String fixture, int lookups)
            throws Exception {
        String name = "flowtest.conformance.network." + fixture;
        long before = NameLookups.done();
        Object value = scheduler.submit(strict.newInstance(Callable.class, name)).get(DEADLINE);
        assertEquals(lookups, NameLookups.done() - before, () -> fixture + " as a flow gave " + value);

        before = NameLookups.done();
        FutureTask<Object> onThread = new FutureTask<>(strict.newInstance(Callable.class, name));
        new Thread(onThread, "lookups-plain").start();
        assertEquals(value, onThread.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS),
                "the plain thread's result is the flow's");
        assertEquals(0, NameLookups.done() - before, "a plain thread looks names up in place");
        TestSupport.awaitIdle(scheduler);
    }
}
