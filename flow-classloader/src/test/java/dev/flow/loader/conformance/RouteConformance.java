package dev.flow.loader.conformance;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.SuspendPolicy;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The conformance cases run as another route defines their classes (the agent, build-time
 * instrumentation), to be compared with the class loader's: each case on a plain thread and as a flow on
 * 1 and on 2 workers, one verdict per cell (the outcome, and for a case that must suspend whether it
 * did). {@link #main} prints the cells of classes loaded normally, in a JVM where a route instrumented
 * them; {@link #cells} computes them for any way of making the fixtures, the loader's included.
 */
public final class RouteConformance {

    /** Every category, by its test class. */
    public static final List<String> SUITES = List.of("Basics", "Concat", "Decorators", "Dispatch", "Exceptions", "Init",
            "Interrupts", "Lambdas", "Locks", "Network", "NullMessages", "Overflow", "Pins", "Primitives", "Streams", "SuperCalls");
    private static final Duration DEADLINE = Duration.ofSeconds(20);
    /** The prefix of each printed cell: {@code CELL <case> <cell>\t<verdict>}. */
    public static final String CELL = "CELL ";

    private RouteConformance() {
    }

    /** Prints the cells of the categories named (all if none), each fixture made with {@code new}. */
    public static void main(String[] args) throws Exception {
        List<String> suites = args.length == 0 ? SUITES : List.of(args);
        Map<String, String> cells = cells(suites, name -> {
            try {
                Constructor<?> k = Class.forName(name).getDeclaredConstructor();
                k.setAccessible(true);
                return (Callable<?>) k.newInstance();
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(name, e);
            }
        });
        for (Map.Entry<String, String> e : cells.entrySet()) {
            System.out.println(CELL + e.getKey() + "\t" + e.getValue().replace("\n", "\\n"));
        }
        System.out.println("DONE " + cells.size());
    }

    /** The fixture packages of the categories named: the scope a route includes to run them. */
    public static List<String> packages(List<String> suites) {
        return suites.stream().map(s -> "flowtest.conformance." + s.toLowerCase(java.util.Locale.ROOT)).collect(Collectors.toList());
    }

    /** Parses printed lines back into cells. */
    public static Map<String, String> parse(List<String> lines) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String l : lines) {
            if (l.startsWith(CELL)) {
                int tab = l.indexOf('\t');
                out.put(l.substring(CELL.length(), tab), l.substring(tab + 1));
            }
        }
        return out;
    }

    /** Each cell whose verdicts differ, as {@code <cell>: <expected> | <actual>}; a missing cell as absent. */
    public static List<String> differences(Map<String, String> expected, Map<String, String> actual) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> e : expected.entrySet()) {
            String a = actual.get(e.getKey());
            if (!e.getValue().replace("\n", "\\n").equals(a)) {
                out.add(e.getKey() + ": " + e.getValue() + " | " + a);
            }
        }
        for (String k : actual.keySet()) {
            if (!expected.containsKey(k)) {
                out.add(k + ": absent | " + actual.get(k));
            }
        }
        return out;
    }

    /** The verdict of every cell of the categories named, each fixture made by {@code make}. */
    public static Map<String, String> cells(List<String> suites, Function<String, Callable<?>> make) throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        try (FlowScheduler one = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("route-1").build();
             FlowScheduler two = FlowScheduler.builder().workers(2).policy(SuspendPolicy.immediately()).name("route-2").build()) {
            for (Case c : cases(suites)) {
                out.put(c.className + " plain", onNewThread(make.apply(c.className)));
                for (FlowScheduler s : new FlowScheduler[] {one, two}) {
                    FlowStats before = s.stats();
                    String outcome = inFlow(s, make.apply(c.className));
                    boolean resumed = s.stats().resumed() > before.resumed();
                    out.put(c.className + " flow on " + s.workers(), outcome
                            + (c.suspends ? resumed ? " [suspended]" : " [did not suspend]" : ""));
                }
            }
        }
        return out;
    }

    /**
     * Starts {@link #cells} of {@code suites}, each fixture made by {@code make}, on a thread of its own, so
     * that the route compared runs meanwhile (its child JVM waits on another process); {@code get} gives the
     * cells or what failed.
     */
    public static FutureTask<Map<String, String>> cellsMeanwhile(List<String> suites, Function<String, Callable<?>> make) {
        FutureTask<Map<String, String>> task = new FutureTask<>(() -> cells(suites, make));
        Thread t = new Thread(task, "route-conformance-loader");
        t.setDaemon(true);
        t.start();
        return task;
    }

    private static List<Case> cases(List<String> suites) throws ReflectiveOperationException {
        List<Case> out = new ArrayList<>();
        for (String s : suites) {
            Class<?> type = Class.forName(RouteConformance.class.getPackageName() + "." + s + "ConformanceTest");
            Constructor<?> k = type.getDeclaredConstructor();
            k.setAccessible(true);
            Method cases = type.getDeclaredMethod("cases");
            cases.setAccessible(true);
            @SuppressWarnings("unchecked")
            java.util.stream.Stream<Case> stream = (java.util.stream.Stream<Case>) cases.invoke(k.newInstance());
            out.addAll(stream.collect(Collectors.toList()));
        }
        return out;
    }

    /** The outcome of {@code fixture} run on a new plain thread, as thread-per-session code would run it. */
    static String onNewThread(Callable<?> fixture) throws InterruptedException {
        AtomicReference<String> out = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                out.set(Outcome.ofValue(fixture.call()));
            } catch (Throwable e) {
                out.set(Outcome.ofThrown(e));
            }
        }, "conformance-plain");
        t.start();
        t.join(DEADLINE.toMillis());
        if (t.isAlive()) {
            t.interrupt();
            return "still running after " + DEADLINE;
        }
        return out.get();
    }

    /** The outcome of {@code fixture} run as a flow of {@code s}. */
    static String inFlow(FlowScheduler s, Callable<?> fixture) throws Exception {
        FlowHandle<?> h = s.submit(fixture);
        try {
            return Outcome.ofValue(h.get(DEADLINE));
        } catch (ExecutionException e) {
            return Outcome.ofThrown(e.getCause());
        }
    }
}
