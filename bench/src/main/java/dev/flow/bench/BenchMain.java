package dev.flow.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Main class of {@code benchmarks.jar}: JMH's own {@code org.openjdk.jmh.Main}, except that on a JDK
 * without virtual threads the virtual-thread benchmarks are excluded (with a message) instead of
 * failing. All JMH options work as usual.
 */
public final class BenchMain {

    /** Matches the virtual-thread benchmark methods ({@code vtYield}, {@code vtPingPong}). */
    static final String VT_BENCHMARKS = "\\.vt[A-Z]\\w*$";

    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        List<String> a = new ArrayList<>(Arrays.asList(args));
        if (!VirtualThreads.available()) {
            System.out.println("# SKIPPED virtual-thread benchmarks (" + VT_BENCHMARKS + "): " + VirtualThreads.reason());
            a.add("-e");
            a.add(VT_BENCHMARKS);
        }
        org.openjdk.jmh.Main.main(a.toArray(new String[0]));
    }
}
