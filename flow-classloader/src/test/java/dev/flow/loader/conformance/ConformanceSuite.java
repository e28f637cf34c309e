package dev.flow.loader.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.SuspendPolicy;
import dev.flow.UnsuspendableFrameException;
import dev.flow.loader.ContinuationClassLoader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fidelity contract as a test: every case runs loaded normally on a plain thread (the reference)
 * and loaded through the {@link ContinuationClassLoader} in every way a user can run it — strict and
 * lenient, on a plain thread without a flow, and as a flow on 1 and on 2 workers — and each run must
 * give the reference's value or exception (type, message, cause chain).
 *
 * <p>A category of patterns extends this class, names its cases and keeps its fixtures in a package
 * under {@code flowtest.conformance}, which is the loaders' scope.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ConformanceSuite {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private ContinuationClassLoader strict;
    private ContinuationClassLoader lenient;
    private FlowScheduler oneWorker;
    private FlowScheduler twoWorkers;

    /** The cases of this category. */
    protected abstract Stream<Case> cases();

    /**
     * The package the loaders include: all fixtures by default, so that each category also meets the
     * others' classes (overrides of the same JDK methods, say).
     */
    protected String scope() {
        return "flowtest.conformance";
    }

    @BeforeAll
    void startLoadersAndSchedulers() {
        strict = ContinuationClassLoader.builder().include(scope()).strict(true).build();
        lenient = ContinuationClassLoader.builder().include(scope()).build();
        String name = getClass().getSimpleName();
        oneWorker = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name(name + "-1").build();
        twoWorkers = FlowScheduler.builder().workers(2).policy(SuspendPolicy.immediately()).name(name + "-2").build();
    }

    @AfterAll
    void stopSchedulers() {
        oneWorker.close();
        twoWorkers.close();
    }

    @AfterEach
    void schedulersAreIdle() {
        awaitIdle(oneWorker);
        awaitIdle(twoWorkers);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void loadedThroughTheLoaderBehavesAsLoadedNormally(Case c) throws Exception {
        String expected = onNewThread(() -> (Callable<?>) Class.forName(c.className).getDeclaredConstructor().newInstance());
        List<String> mismatches = new ArrayList<>();
        for (boolean isStrict : new boolean[] {true, false}) {
            ContinuationClassLoader loader = isStrict ? strict : lenient;
            String mode = isStrict ? "strict" : "lenient";
            check(mismatches, mode + ", plain thread", expected,
                    onNewThread(() -> loader.newInstance(Callable.class, c.className)));
            for (FlowScheduler s : new FlowScheduler[] {oneWorker, twoWorkers}) {
                String where = mode + ", flow on " + s.workers() + " worker(s)";
                FlowStats before = s.stats();
                String actual = inFlow(s, loader.newInstance(Callable.class, c.className));
                FlowStats after = s.stats();
                if (c.pinReason != null && isStrict) {
                    String refused = "threw " + UnsuspendableFrameException.class.getName();
                    if (!actual.startsWith(refused) || !actual.contains(c.pinReason)) {
                        mismatches.add(where + ": expected a refusal naming '" + c.pinReason + "' but " + actual);
                    }
                    continue;
                }
                check(mismatches, where, expected, actual);
                if (c.suspends && after.resumed() == before.resumed()) {
                    mismatches.add(where + ": expected a real suspension, but no flow was resumed");
                }
            }
        }
        if (!mismatches.isEmpty()) {
            fail(c + ": reference (loaded normally) " + expected + "\n  " + String.join("\n  ", mismatches));
        }
    }

    private static void check(List<String> mismatches, String where, String expected, String actual) {
        if (!expected.equals(actual)) {
            mismatches.add(where + ": " + actual);
        }
    }

    /** Runs the fixture made by {@code factory} on a new plain thread, as thread-per-session code would. */
    private static String onNewThread(Callable<Callable<?>> factory) throws Exception {
        return RouteConformance.onNewThread(factory.call());
    }

    private static String inFlow(FlowScheduler s, Callable<?> fixture) throws Exception {
        return RouteConformance.inFlow(s, fixture);
    }

    private static void awaitIdle(FlowScheduler scheduler) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        FlowStats s = scheduler.stats();
        while (!s.isIdle()) {
            assertTrue(System.nanoTime() < deadline, () -> "scheduler not idle after " + DEADLINE + ": " + scheduler.stats());
            Thread.onSpinWait();
            Thread.yield();
            s = scheduler.stats();
        }
    }
}
