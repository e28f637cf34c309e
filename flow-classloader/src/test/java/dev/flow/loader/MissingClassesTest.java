package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import java.net.URL;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A class that names classes the parent cannot find (a compile-only annotation, an optional
 * dependency) or calls a method of an array type is instrumented like any other: such a class cannot
 * be in scope, so nothing of it is continuable, and the flow suspends in strict and lenient mode. The
 * parent here hides {@code flowtest.absent}, as a class path without the optional jars would.
 */
class MissingClassesTest {

    private static final ClassLoader WITHOUT_ABSENT = new ClassLoader("without-flowtest.absent",
            MissingClassesTest.class.getClassLoader()) {
        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("flowtest.absent.")) {
                throw new ClassNotFoundException(name);
            }
            return super.loadClass(name, resolve);
        }

        @Override
        public URL getResource(String name) {
            return name.startsWith("flowtest/absent/") ? null : super.getResource(name);
        }
    };

    @ParameterizedTest(name = "{0}, strict {1}")
    @CsvSource({
        "AnnotatedWithAbsentAnnotation, false, got x", "AnnotatedWithAbsentAnnotation, true, got x",
        "CallsAbsentOptionalDependency, false, got x", "CallsAbsentOptionalDependency, true, got x",
        "ClonesArray, false, got x3", "ClonesArray, true, got x3"})
    void flowSuspendsInAMethodNamingAnAbsentClassOrAnArrayType(String fixture, boolean strict, String expected)
            throws Exception {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.missing")
                .parent(WITHOUT_ABSENT).strict(strict).build();
        CompletableFuture<String> f = new CompletableFuture<>();
        try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("missing").build()) {
            FlowHandle<Object> h = s.submit(loader.newInstance(Callable.class, "flowtest.missing." + fixture, f));
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (s.stats().suspended() != 1) {
                if (System.nanoTime() > deadline) {
                    fail("the flow did not suspend within 10 s: " + s.stats());
                }
                Thread.onSpinWait();
            }
            f.complete("x");
            assertEquals(expected, h.get(Duration.ofSeconds(10)));
            TestSupport.awaitIdle(s);
        }
    }
}
