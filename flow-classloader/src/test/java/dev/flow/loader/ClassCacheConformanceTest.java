package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.internal.Pins;
import dev.flow.loader.conformance.RouteConformance;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The conformance cases run through the class cache as users run them (the cache is on by default, the
 * other suites turn it off): in each mode, a loader over an empty cache directory under {@code target}
 * (every class a miss, instrumented and written) and then a new loader over the same directory (every
 * class a hit, defined from the cache) must give every cell the verdict of a loader without a cache,
 * and log the same pin warnings in the same order.
 *
 * <p>A subset of the categories, to keep CI time small: all sixteen three times in two modes took 71 s
 * on their own (load 11), more than the conformance suite itself (about 60 s). Those kept are where the
 * cache does more than store bytes: classes that name pin sites, whose ids a miss patches and a hit
 * registers again with their warnings (pins, locks, decorators, network, super calls, streams; the
 * decorators are where a miss once wrote wrong stack map frames), and the classes generated for lambdas
 * (lambdas). Primitives, the slowest category (about 2 s a route), and the rest are left out here;
 * {@link ClassCacheTest} links every conformance class through a cache, so the verifier still sees them.
 */
class ClassCacheConformanceTest {

    private static final List<String> SUITES = List.of("Decorators", "Lambdas", "Locks", "Network", "Pins", "Streams", "SuperCalls");

    private static final Path ROOT = Paths.get("target", "class-cache-conformance");

    @ParameterizedTest(name = "strict {0}")
    @ValueSource(booleans = {false, true})
    void missAndHitGiveTheVerdictsAndPinWarningsOfTheLoaderWithoutCache(boolean strict) throws Exception {
        List<String> suites = SUITES;
        String[] scope = RouteConformance.packages(suites).toArray(new String[0]);
        Path dir = ROOT.resolve(strict ? "strict" : "lenient");
        deleteTree(dir);

        List<String> plainWarnings = new ArrayList<>();
        Map<String, String> plain = run(suites, ContinuationClassLoader.builder().include(scope).strict(strict).noCache().build(),
                plainWarnings);

        ContinuationClassLoader miss = ContinuationClassLoader.builder().include(scope).strict(strict).cacheDirectory(dir).build();
        List<String> missWarnings = new ArrayList<>();
        Map<String, String> onMiss = run(suites, miss, missWarnings);

        ContinuationClassLoader hit = ContinuationClassLoader.builder().include(scope).strict(strict).cacheDirectory(dir).build();
        List<String> hitWarnings = new ArrayList<>();
        Map<String, String> onHit = run(suites, hit, hitWarnings);

        assertTrue(miss.classFilesMade() > 0, "the first loader instruments and writes the classes");
        assertTrue(strict || !plainWarnings.isEmpty(), "the lenient fixtures log pin warnings to compare");
        assertEquals(List.of(), RouteConformance.differences(plain, onMiss), "cells on a miss: without cache | with");
        assertEquals(plainWarnings, missWarnings, "pin warnings on a miss");
        assertEquals(List.of(), RouteConformance.differences(plain, onHit), "cells on a hit: without cache | with");
        assertEquals(plainWarnings, hitWarnings, "pin warnings on a hit");
        assertEquals(0, hit.classFilesMade(), "the second loader defines every class from the cache");
    }

    /** The cells of {@code suites} with fixtures made by {@code loader}; adds the pin warnings logged meanwhile. */
    private static Map<String, String> run(List<String> suites, ContinuationClassLoader loader, List<String> warnings)
            throws Exception {
        int before = Pins.warnings().size();
        Map<String, String> cells = RouteConformance.cells(suites, name -> loader.newInstance(Callable.class, name));
        List<String> all = Pins.warnings();
        warnings.addAll(all.subList(before, all.size()));
        // RouteConformance.differences takes the actual side as printed, with its line breaks escaped.
        cells.replaceAll((cell, verdict) -> verdict.replace("\n", "\\n"));
        return cells;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                    Files.delete(p);
                }
            }
        }
    }
}
