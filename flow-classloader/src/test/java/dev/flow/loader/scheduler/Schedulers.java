package dev.flow.loader.scheduler;

import static org.junit.jupiter.api.Assertions.fail;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.loader.ContinuationClassLoader;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Shared set-up and condition waits with deadlines for the scheduler tests. */
final class Schedulers {

    static final ContinuationClassLoader LOADER =
            ContinuationClassLoader.builder().include("flowtest.scheduler").strict(true).build();

    private Schedulers() {
    }

    static Callable<Object> fixture(String simpleName, Object... args) {
        return LOADER.newInstance(Callable.class, "flowtest.scheduler." + simpleName, args);
    }

    /** Waits up to {@code timeout} for {@code condition}; fails with {@code what} otherwise. */
    static void await(Duration timeout, BooleanSupplier condition, Supplier<String> what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("after " + timeout + ": " + what.get());
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    static void awaitIdle(FlowScheduler s) {
        await(Duration.ofSeconds(20), () -> s.stats().isIdle(), () -> "not idle: " + s.stats());
    }

    static void awaitAllDone(List<? extends FlowHandle<?>> handles, Duration timeout) {
        await(timeout, () -> handles.stream().allMatch(FlowHandle::isDone),
                () -> handles.stream().filter(h -> !h.isDone()).count() + " of " + handles.size() + " handles not done");
    }

    /** The live threads whose name starts with {@code prefix}. */
    static long liveThreads(String prefix) {
        return liveThreadNames(prefix).size();
    }

    /** The names of the live threads whose names start with {@code prefix}. */
    static java.util.List<String> liveThreadNames(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(prefix)).map(Thread::getName).sorted()
                .collect(java.util.stream.Collectors.toList());
    }

    static void assertCountsZero(FlowStats s) {
        if (s.active() != 0 || s.running() != 0 || s.suspended() != 0 || s.queued() != 0) {
            fail("counts not back to 0: " + s);
        }
    }
}
