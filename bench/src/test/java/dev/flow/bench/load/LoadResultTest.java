package dev.flow.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The verdicts of the load driver's timing checks (think time, Little's law, client saturation) on numbers
 * given, without a run: the end-to-end runs of {@link LoadDriverTest} report these checks but cannot require
 * them on a shared machine, whose load decides how long a think or a response takes.
 */
class LoadResultTest {

    /** Closed loop, 4 connections thinking 10 ms, as {@link LoadDriverTest} runs them. */
    private static LoadClient.Config config() {
        LoadClient.Config c = new LoadClient.Config();
        c.connections = 4;
        c.thinkMs = 10;
        return c;
    }

    /** A steady state of 4 connections with mean response {@code meanMs} and think {@code thinkMs}, at {@code throughput}. */
    private static LoadResult run(double throughput, double meanMs, double thinkMs) {
        LoadResult r = new LoadResult();
        r.mode = "given";
        r.connections = 4;
        r.connected = 4;
        r.aliveAtEnd = 4;
        r.thinkMs = 10;
        r.requests = 1_000;
        r.throughput = throughput;
        r.meanMs = meanMs;
        r.actualThinkMs = thinkMs;
        r.perConnMin = 240;
        r.perConnMedian = 250;
        r.perConnMax = 260;
        r.clientCores = 0.1;
        r.clientCoreLimit = 2;
        r.clientMaxThreadBusy = 0.1;
        r.evaluate(config());
        return r;
    }

    private static boolean passed(LoadResult r, String check) {
        return r.checks.stream().filter(k -> k.name.equals(check)).findFirst()
                .orElseThrow(() -> new AssertionError("no check " + check + ": " + r.report())).passed;
    }

    @Test
    void aRunThatKeepsItsThinkTimeAndLittlesLawIsValid() {
        // X = N / (R + Z) = 4 / 10.7 ms = 373.8/s
        LoadResult r = run(4 / 0.0107, 0.5, 10.2);
        assertTrue(r.valid(), r::report);
        assertEquals(7, r.checks.size(), r::report);
    }

    @Test
    void aThinkTimeOverItsToleranceInvalidatesTheRunThoughLittlesLawHolds() {
        // Z = 13 ms against 10 ms intended (allowed: 1 ms); X = 4 / 13.5 ms keeps Little's law
        LoadResult r = run(4 / 0.0135, 0.5, 13);
        assertFalse(passed(r, "think time"), r::report);
        assertTrue(passed(r, "little's law"), r::report);
        assertFalse(r.valid(), r::report);
    }

    @Test
    void aThroughputThatDoesNotAccountForTheConnectionsInFlightBreaksLittlesLaw() {
        // 190/s x (0.5 + 10.2) ms = 2.0 in flight, not 4: requests were lost from the count, or a stall straddled the window
        LoadResult r = run(190, 0.5, 10.2);
        assertFalse(passed(r, "little's law"), r::report);
        assertTrue(passed(r, "think time"), r::report);
        assertFalse(r.valid(), r::report);
    }

    @Test
    void aClientThatUsesMostOfItsCoresInvalidatesTheRun() {
        // 1.9 of 2 cores, over the 90% limit; the same run at 0.1 core is valid (above)
        LoadResult r = run(4 / 0.0107, 0.5, 10.2);
        r.clientCores = 1.9;
        r.evaluate(config());
        assertFalse(passed(r, "client not saturated"), r::report);
        assertFalse(r.valid(), r::report);
    }
}
