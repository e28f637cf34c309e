package dev.flow.loader.internal;

import java.lang.management.ManagementFactory;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Paths;
import java.util.List;

/** Scratch: CPU and bytes allocated by the scan of the Jedis set's packages (not in the repository). */
public class ScanCost {
    public static void main(String[] a) throws Exception {
        String[] jars = a[0].split(":");
        URL[] urls = new URL[jars.length];
        for (int i = 0; i < jars.length; i++) urls[i] = Paths.get(jars[i]).toUri().toURL();
        URLClassLoader parent = new URLClassLoader(urls, ScanCost.class.getClassLoader());
        com.sun.management.ThreadMXBean t = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int round = 0; round < 3; round++) {
            long b0 = t.getCurrentThreadAllocatedBytes(), c0 = t.getCurrentThreadCpuTime();
            int n = Instrumenter.scan(parent, List.of(a[1].split(",")), List.of()).size();
            System.out.printf("round %d: %d classes, cpu %.1f ms, allocated %.1f MB%n", round, n,
                    (t.getCurrentThreadCpuTime() - c0) / 1e6, (t.getCurrentThreadAllocatedBytes() - b0) / 1e6);
        }
    }
}
