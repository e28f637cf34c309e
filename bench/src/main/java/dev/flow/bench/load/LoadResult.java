package dev.flow.bench.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** What one load run measured, and the validity checks that decide whether it counts. */
public final class LoadResult {

    /** One validity check. */
    public static final class Check {
        public final String name;
        public final boolean passed;
        public final String detail;

        Check(String name, boolean passed, String detail) {
            this.name = name;
            this.passed = passed;
            this.detail = detail;
        }

        @Override
        public String toString() {
            return (passed ? "PASS " : "FAIL ") + name + ": " + detail;
        }
    }

    public String mode;
    public int connections;
    public int connected;
    public int aliveAtEnd;
    public double thinkMs;
    public double offeredRate;
    public double warmupS;
    public double steadyS;
    public long requests;
    public double throughput;
    public double meanMs;
    public double p50Ms;
    public double p90Ms;
    public double p99Ms;
    public double p999Ms;
    public double maxMs;
    public double actualThinkMs = Double.NaN;
    public double sendLatenessMs = Double.NaN;
    public long perConnMin;
    public long perConnMedian;
    public long perConnMax;
    public double clientCores;
    public int clientCoreLimit;
    public double clientMaxThreadBusy;
    public int cpus;
    public double serverCores = Double.NaN;
    public double serverCpuUsPerRequest = Double.NaN;
    public int serverThreads = -1;
    public double serverRssMb = Double.NaN;
    public long lostInRampdown;
    /** Responses over the whole run: warm-up, steady state and ramp-down. */
    public long answeredInRun;
    /** Why the run could not take place (a limit), or {@code null}. */
    public String limit;
    public final Map<String, Long> errors = new TreeMap<>();
    public final List<Check> checks = new ArrayList<>();

    void error(String kind) {
        errors.merge(kind, 1L, Long::sum);
    }

    long errorCount() {
        long n = 0;
        for (long v : errors.values()) {
            n += v;
        }
        return n;
    }

    /** Whether the run took place and every check passed. */
    public boolean valid() {
        if (limit != null || checks.isEmpty()) {
            return false;
        }
        for (Check c : checks) {
            if (!c.passed) {
                return false;
            }
        }
        return true;
    }

    /** The failed checks, or the limit, as one line; empty if valid. */
    public String failures() {
        if (limit != null) {
            return "LIMIT: " + limit;
        }
        StringBuilder b = new StringBuilder();
        for (Check c : checks) {
            if (!c.passed) {
                b.append(b.length() == 0 ? "" : "; ").append(c.name).append(": ").append(c.detail);
            }
        }
        return b.toString();
    }

    void evaluate(LoadClient.Config c) {
        checks.clear();
        checks.add(new Check("responses", requests > 0, requests + " responses in the steady state"));
        long errs = errorCount();
        checks.add(new Check("errors", errs == 0, errs == 0 ? "none" : errs + " " + errors));
        checks.add(new Check("ramp-down", lostInRampdown == 0, lostInRampdown == 0
                ? "every request answered" : lostInRampdown + " requests still unanswered after the ramp-down"));
        if (c.closedLoop()) {
            // Z is the think time actually measured (receive to next send); the think-time check below
            // compares it with the intended one. A connection that stalls or dies breaks this one.
            double z = Double.isNaN(actualThinkMs) ? c.thinkMs : actualThinkMs;
            // with a pipeline of P, each connection keeps P requests in flight per turn
            double population = (double) connections * c.pipeline;
            double predicted = throughput * (meanMs + z) / 1e3;
            double dev = connections == 0 ? 0 : Math.abs(predicted - population) / population;
            checks.add(new Check("little's law", dev <= c.littleTolerance, String.format(Locale.ROOT,
                    "X x (R + Z) = %.0f/s x (%.3f + %.3f) ms = %.1f in flight vs %d connections x %d (%.1f%% off, tolerance %.0f%%)",
                    throughput, meanMs, z, predicted, connections, c.pipeline, dev * 100, c.littleTolerance * 100)));
            double allowed = Math.max(c.thinkTolerance * c.thinkMs, c.thinkFloorMs);
            double over = actualThinkMs - c.thinkMs;
            boolean ok = Double.isNaN(actualThinkMs) || Math.abs(over) <= allowed;
            checks.add(new Check("think time", ok, String.format(Locale.ROOT,
                    "actual %.3f ms vs intended %.1f ms (deviation %+.3f ms, allowed %.3f ms)", actualThinkMs, c.thinkMs,
                    over, allowed)));
        } else {
            double dev = Math.abs(throughput - c.rate) / c.rate;
            checks.add(new Check("little's law (open loop: throughput = offered rate)", dev <= c.littleTolerance,
                    String.format(Locale.ROOT, "%.0f/s vs offered %.0f/s (%.1f%% off, tolerance %.0f%%)", throughput,
                            c.rate, dev * 100, c.littleTolerance * 100)));
            double interval = c.connections * 1e3 / c.rate;
            double allowed = Math.max(c.thinkTolerance * interval, c.thinkFloorMs);
            boolean ok = Double.isNaN(sendLatenessMs) || sendLatenessMs <= allowed;
            checks.add(new Check("send lateness", ok, String.format(Locale.ROOT,
                    "timer sends %.3f ms late on average (allowed %.3f ms)", sendLatenessMs, allowed)));
        }
        double ratio = perConnMedian == 0 ? 0 : (double) perConnMin / perConnMedian;
        if (perConnMedian >= 10) {
            checks.add(new Check("fairness", ratio >= c.fairnessMin, String.format(Locale.ROOT,
                    "per-connection echoes min/median/max = %d/%d/%d, min/median %.2f (required >= %.2f)",
                    perConnMin, perConnMedian, perConnMax, ratio, c.fairnessMin)));
        } else {
            checks.add(new Check("fairness", perConnMin > 0,
                    String.format(Locale.ROOT, "per-connection echoes min/median/max = %d/%d/%d"
                            + " (median < 10: too few to judge the spread; only checks that no connection starved)", perConnMin, perConnMedian,
                            perConnMax)));
        }
        double limitCores = clientCoreLimit;
        boolean saturated = clientCores >= c.saturation * limitCores || clientMaxThreadBusy >= 0.95;
        checks.add(new Check("client not saturated", !saturated, String.format(Locale.ROOT,
                "client used %.2f of %.0f cores (limit %.0f%%), busiest I/O thread %.0f%% busy (limit 95%%)",
                clientCores, limitCores, c.saturation * 100, clientMaxThreadBusy * 100)));
    }

    /** A human-readable report, with the checks. */
    public String report() {
        StringBuilder b = new StringBuilder();
        if (limit != null) {
            b.append("RUN NOT POSSIBLE (").append(mode).append(", ").append(connections).append(" connections): ")
                    .append(limit).append('\n');
            return b.toString();
        }
        b.append(String.format(Locale.ROOT, "RESULT mode=%s connections=%d think=%.1fms rate=%.0f throughput=%.0f/s"
                        + " mean=%.3fms p50=%.3fms p90=%.3fms p99=%.3fms p99.9=%.3fms max=%.3fms requests=%d%n",
                mode, connections, thinkMs, offeredRate, throughput, meanMs, p50Ms, p90Ms, p99Ms, p999Ms, maxMs, requests));
        b.append(String.format(Locale.ROOT, "  server: %.2f cores, %.2f us CPU per request, %d threads, RSS %.0f MB;"
                        + " client: %.2f cores (%d I/O threads on %d CPUs shared with the server)%n",
                serverCores, serverCpuUsPerRequest, serverThreads, serverRssMb, clientCores, clientCoreLimit, cpus));
        b.append("  responses over the whole run (warm-up and ramp-down included): ").append(answeredInRun).append('\n');
        b.append("  errors: ").append(errors.isEmpty() ? "none" : errors.toString()).append('\n');
        for (Check c : checks) {
            b.append("  ").append(c).append('\n');
        }
        if (!valid()) {
            b.append("INVALID RUN (").append(mode).append(", ").append(connections).append(" connections): ")
                    .append(failures()).append('\n');
        }
        return b.toString();
    }

    static String csvHeader() {
        return "scenario,round,mode,connections,think_ms,rate,throughput_rps,mean_ms,p50_ms,p90_ms,p99_ms,p999_ms,max_ms,"
                + "requests,errors,fair_min_over_median,client_cores,server_cores,server_cpu_us_per_req,server_threads,"
                + "server_rss_mb,valid,failures";
    }

    String csv(String scenario, int round) {
        return String.format(Locale.ROOT, "%s,%d,%s,%d,%.1f,%.0f,%.1f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%d,%d,%.3f,%.3f,%.3f,%.3f,%d,%.1f,%s,\"%s\"",
                scenario, round, mode, connections, thinkMs, offeredRate, throughput, meanMs, p50Ms, p90Ms, p99Ms,
                p999Ms, maxMs, requests, errorCount(), perConnMedian == 0 ? 0.0 : (double) perConnMin / perConnMedian,
                clientCores, serverCores, serverCpuUsPerRequest, serverThreads, serverRssMb, valid(),
                failures().replace('"', '\''));
    }
}
