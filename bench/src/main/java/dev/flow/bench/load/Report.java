package dev.flow.bench.load;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Turns the CSV files of a {@link LoadSuite} run into {@code load-results.md} and PNG charts.
 * {@code java -cp benchmarks.jar dev.flow.bench.load.Report [dir]} regenerates them from the CSVs.
 */
public final class Report {

    /** Distinct colours, one per mode. */
    private static final java.awt.Color[] PALETTE = {new java.awt.Color(0x1f77b4), new java.awt.Color(0xff7f0e),
        new java.awt.Color(0x9467bd), new java.awt.Color(0x2ca02c), new java.awt.Color(0xd62728), new java.awt.Color(0x17becf),
        new java.awt.Color(0x8c564b)};

    private Report() {
    }

    public static void main(String[] args) throws IOException {
        System.setProperty("java.awt.headless", "true");
        generate(Path.of(args.length > 0 ? args[0] : "results/load"), System.out);
    }

    /** Reads the CSVs present in {@code dir} and writes the Markdown and the charts next to them. */
    static void generate(Path dir, PrintStream log) throws IOException {
        System.setProperty("java.awt.headless", "true");
        StringBuilder md = new StringBuilder("# Load driver results\n\n");
        md.append("Generated from the CSV files in this folder. Client and server share the same 2 CPUs.\n\n");
        List<Map<String, String>> echo = read(dir.resolve("echo.csv"));
        if (!echo.isEmpty()) {
            md.append("## Echo, closed loop, zero think time\n\n").append(table(echo)).append('\n');
            xy(dir.resolve("throughput-vs-connections.png"), "Echo throughput vs connections (client + server on 2 CPUs)",
                    "connections", "round trips / s", echo, "throughput_rps", false);
            xy(dir.resolve("p99-vs-connections.png"), "Echo p99 latency vs connections (client + server on 2 CPUs)",
                    "connections", "p99 latency (ms)", echo, "p99_ms", true);
        }
        List<Map<String, String>> inter = read(dir.resolve("interleaved.csv"));
        if (!inter.isEmpty()) {
            md.append("## Interleaved rounds (A B C D, A B C D, ...)\n\n").append(table(inter)).append('\n');
            md.append(interleavedSummary(inter)).append('\n');
        }
        List<Map<String, String>> pollers = read(dir.resolve("pollers.csv"));
        if (!pollers.isEmpty()) {
            md.append("## Pollers (one request per 5 s of think time per session)\n\n").append(table(pollers)).append('\n');
        }
        List<Map<String, String>> sleepers = read(dir.resolve("sleepers.csv"));
        if (!sleepers.isEmpty()) {
            md.append("## Sleepers (N x Thread.sleep(5000) in plain user code)\n\n");
            md.append("| mode | N | wall (ms) | over 5 s (ms) | start all (ms) | retained heap per flow (bytes) | RSS per flow (bytes) | status |\n");
            md.append("|---|---|---|---|---|---|---|---|\n");
            for (Map<String, String> r : sleepers) {
                md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |%n", r.get("mode"), r.get("n"),
                        r.get("wall_ms"), r.get("overhead_ms"), r.get("start_ms"), r.get("heap_bytes_per_flow"),
                        r.get("rss_bytes_per_flow"), r.get("status")));
            }
            md.append('\n');
            memoryChart(dir.resolve("memory-per-flow.png"), sleepers);
        }
        Files.writeString(dir.resolve("load-results.md"), md.toString(), StandardCharsets.UTF_8);
        log.println("# wrote " + dir.resolve("load-results.md") + " and the PNG charts");
    }

    static String interleavedSummary(List<Map<String, String>> rows) {
        Map<String, List<Double>> by = new LinkedHashMap<>();
        Map<String, List<Double>> cpu = new LinkedHashMap<>();
        for (Map<String, String> r : rows) {
            if (r.get("valid").equals("true")) {
                by.computeIfAbsent(r.get("mode"), k -> new ArrayList<>()).add(Double.parseDouble(r.get("throughput_rps")));
                cpu.computeIfAbsent(r.get("mode"), k -> new ArrayList<>()).add(Double.parseDouble(r.get("server_cpu_us_per_req")));
            }
        }
        StringBuilder b = new StringBuilder("| mode | valid rounds | throughput per round (/s) | median (/s) | server µs CPU per request, median |\n|---|---|---|---|---|\n");
        Map<String, Double> med = new TreeMap<>();
        for (Map.Entry<String, List<Double>> e : by.entrySet()) {
            List<Double> v = new ArrayList<>(e.getValue());
            List<String> shown = new ArrayList<>();
            for (double d : v) {
                shown.add(String.format(Locale.ROOT, "%.0f", d));
            }
            Collections.sort(v);
            double m = v.size() % 2 == 1 ? v.get(v.size() / 2) : (v.get(v.size() / 2 - 1) + v.get(v.size() / 2)) / 2;
            med.put(e.getKey(), m);
            b.append(String.format(Locale.ROOT, "| %s | %d | %s | %.0f | %.1f |%n", e.getKey(), v.size(), String.join(", ", shown), m,
                    median(cpu.get(e.getKey()))));
        }
        Double cont = med.get("continuation-immediately");
        Double mina = med.get("mina");
        Double vt = med.get("virtual");
        b.append('\n');
        if (cont != null && mina != null) {
            double q = cont / mina;
            b.append(String.format(Locale.ROOT, "- continuation / mina = %.2f (goal >= 0.90): %s%n", q,
                    q >= 0.9 ? "MET" : String.format(Locale.ROOT, "NOT MET, %.0f%% short", (0.9 - q) / 0.9 * 100)));
        }
        if (cont != null && vt != null) {
            double q = cont / vt;
            b.append(String.format(Locale.ROOT, "- continuation / virtual = %.2f (goal >= 1.10): %s%n", q,
                    q >= 1.1 ? "MET" : String.format(Locale.ROOT, "NOT MET, %.0f%% short", (1.1 - q) / 1.1 * 100)));
        }
        return b.toString();
    }

    private static double median(List<Double> in) {
        List<Double> v = new ArrayList<>(in);
        Collections.sort(v);
        return v.isEmpty() ? Double.NaN : v.size() % 2 == 1 ? v.get(v.size() / 2) : (v.get(v.size() / 2 - 1) + v.get(v.size() / 2)) / 2;
    }

    static String table(List<Map<String, String>> rows) {
        StringBuilder b = new StringBuilder("| round | mode | conns | think ms | throughput /s | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms"
                + " | errors | fair min/med | client cores | server cores | server µs CPU/req | server threads | server RSS MB | valid |\n");
        b.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Map<String, String> r : rows) {
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    r.get("round"), r.get("mode"), r.get("connections"), r.get("think_ms"),
                    fmt(r.get("throughput_rps"), "%.0f"), fmt(r.get("p50_ms"), "%.3f"), fmt(r.get("p90_ms"), "%.3f"),
                    fmt(r.get("p99_ms"), "%.3f"), fmt(r.get("p999_ms"), "%.3f"), fmt(r.get("max_ms"), "%.2f"),
                    r.get("errors"), fmt(r.get("fair_min_over_median"), "%.2f"), fmt(r.get("client_cores"), "%.2f"),
                    fmt(r.get("server_cores"), "%.2f"), fmt(r.get("server_cpu_us_per_req"), "%.1f"), r.get("server_threads"),
                    fmt(r.get("server_rss_mb"), "%.0f"),
                    r.get("valid").equals("true") ? "yes" : "**NO**: " + r.get("failures")));
        }
        return b.toString();
    }

    private static String fmt(String v, String f) {
        try {
            double d = Double.parseDouble(v);
            return Double.isNaN(d) ? "n/a" : String.format(Locale.ROOT, f, d);
        } catch (RuntimeException e) {
            return v == null ? "" : v;
        }
    }

    private static void xy(Path file, String title, String x, String y, List<Map<String, String>> rows, String col,
            boolean logY) throws IOException {
        XYChart ch = new XYChartBuilder().width(900).height(560).title(title).xAxisTitle(x + " (log scale)").yAxisTitle(y).build();
        ch.getStyler().setXAxisLogarithmic(true);
        ch.getStyler().setYAxisLogarithmic(logY);
        ch.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        ch.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        ch.getStyler().setMarkerSize(8);
        ch.getStyler().setSeriesColors(PALETTE);
        ch.getStyler().setBaseFont(ch.getStyler().getBaseFont().deriveFont(14f));
        ch.getStyler().setAxisTickLabelsFont(ch.getStyler().getAxisTickLabelsFont().deriveFont(13f));
        ch.getStyler().setLegendFont(ch.getStyler().getLegendFont().deriveFont(13f));
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        for (Map<String, String> r : rows) {
            if (!r.get("valid").equals("true")) {
                continue;
            }
            series.computeIfAbsent(r.get("mode"), k -> new ArrayList<>())
                    .add(new double[] {Double.parseDouble(r.get("connections")), Double.parseDouble(r.get(col))});
        }
        for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
            double[] xs = new double[e.getValue().size()];
            double[] ys = new double[xs.length];
            for (int i = 0; i < xs.length; i++) {
                xs[i] = e.getValue().get(i)[0];
                ys[i] = Math.max(e.getValue().get(i)[1], 1e-3);
            }
            ch.addSeries(e.getKey(), xs, ys).setMarker(SeriesMarkers.CIRCLE);
        }
        if (!series.isEmpty()) {
            BitmapEncoder.saveBitmap(ch, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        }
    }

    private static void memoryChart(Path file, List<Map<String, String>> rows) throws IOException {
        CategoryChart ch = new CategoryChartBuilder().width(900).height(560)
                .title("Retained heap per sleeping flow/thread (Thread.sleep(5000))").xAxisTitle("N sleepers")
                .yAxisTitle("bytes per flow").build();
        ch.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        ch.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        ch.getStyler().setLabelsVisible(true);
        ch.getStyler().setBaseFont(ch.getStyler().getBaseFont().deriveFont(14f));
        ch.getStyler().setAxisTickLabelsFont(ch.getStyler().getAxisTickLabelsFont().deriveFont(13f));
        ch.getStyler().setLegendFont(ch.getStyler().getLegendFont().deriveFont(13f));
        List<String> ns = new ArrayList<>();
        Map<String, Map<String, Double>> by = new LinkedHashMap<>();
        for (Map<String, String> r : rows) {
            String n = r.get("n");
            if (!ns.contains(n)) {
                ns.add(n);
            }
            String v = r.get("heap_bytes_per_flow");
            if (v != null && !v.isEmpty() && !v.equals("-1")) {
                by.computeIfAbsent(r.get("mode"), k -> new LinkedHashMap<>()).put(n, Double.parseDouble(v));
            }
        }
        for (Map.Entry<String, Map<String, Double>> e : by.entrySet()) {
            List<Double> ys = new ArrayList<>();
            for (String n : ns) {
                ys.add(e.getValue().getOrDefault(n, 0.0));
            }
            ch.addSeries(e.getKey(), ns, ys);
        }
        if (!by.isEmpty()) {
            BitmapEncoder.saveBitmap(ch, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        }
    }

    /** Reads a CSV whose last column may be a quoted string with commas. */
    static List<Map<String, String>> read(Path p) throws IOException {
        List<Map<String, String>> rows = new ArrayList<>();
        if (!Files.exists(p)) {
            return rows;
        }
        List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
        if (lines.isEmpty()) {
            return rows;
        }
        String[] head = lines.get(0).split(",");
        for (int i = 1; i < lines.size(); i++) {
            String[] f = lines.get(i).split(",", head.length);
            Map<String, String> m = new LinkedHashMap<>();
            for (int j = 0; j < head.length && j < f.length; j++) {
                String v = f[j];
                if (v.startsWith("\"") && v.endsWith("\"") && v.length() >= 2) {
                    v = v.substring(1, v.length() - 1);
                }
                m.put(head[j], v);
            }
            rows.add(m);
        }
        return rows;
    }
}
