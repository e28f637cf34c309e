package dev.flow.loader;

import java.lang.management.*;
import java.net.*;
import java.nio.file.*;
import java.util.*;
import java.util.jar.*;

/** Scratch: first-use CPU per class, and what each class became (not in the repository). */
public class PerClass {
    public static void main(String[] a) throws Exception {
        String[] jars = a[0].split(":");
        String[] inc = a[1].split(",");
        List<String> all = new ArrayList<>(new TreeSet<>(names(jars, inc)));
        List<String> sample = new ArrayList<>();
        for (int i = 0; i < 50; i++) sample.add(all.get((int) ((long) i * all.size() / 50)));
        URL[] urls = new URL[jars.length];
        for (int i = 0; i < jars.length; i++) urls[i] = Paths.get(jars[i]).toUri().toURL();
        URLClassLoader parent = new URLClassLoader(urls, PerClass.class.getClassLoader());
        ContinuationClassLoader l = ContinuationClassLoader.builder().parent(parent).include(inc).noCache().build();
        ThreadMXBean t = ManagementFactory.getThreadMXBean();
        int engine = 0, changed = 0; long tEngine = 0, tChanged = 0, tSame = 0;
        for (String n : sample) {
            long c0 = t.getCurrentThreadCpuTime();
            Class.forName(n, false, l);
            long c = t.getCurrentThreadCpuTime() - c0;
            byte[] fin = l.definedBytes(n);
            byte[] orig;
            try (var in = parent.getResourceAsStream(n.replace('.', '/') + ".class")) { orig = in.readAllBytes(); }
            String s = new String(fin, java.nio.charset.StandardCharsets.ISO_8859_1);
            boolean eng = s.contains("dev/flow/internal/Engine");
            boolean ch = !Arrays.equals(fin, orig);
            if (eng) { engine++; tEngine += c; } else if (ch) { changed++; tChanged += c; } else tSame += c;
            System.out.printf("%7.2f ms %s %6d->%6d %s%n", c / 1e6, eng ? "ENGINE " : ch ? "CHANGED" : "same   ", orig.length, fin.length, n);
        }
        System.out.printf("engine %d (%.0f ms), changed %d (%.0f ms), same %d (%.0f ms)%n", engine, tEngine / 1e6, changed, tChanged / 1e6,
                50 - engine - changed, tSame / 1e6);
    }
    static Set<String> names(String[] jars, String[] inc) throws Exception {
        Set<String> out = new HashSet<>();
        for (String j : jars) try (JarFile jf = new JarFile(j)) {
            for (Enumeration<JarEntry> e = jf.entries(); e.hasMoreElements();) {
                String n = e.nextElement().getName();
                if (!n.endsWith(".class") || n.startsWith("META-INF/") || n.endsWith("module-info.class") || n.endsWith("package-info.class")) continue;
                String d = n.substring(0, n.length() - 6).replace('/', '.');
                for (String i : inc) if (d.startsWith(i + ".")) out.add(d);
            }
        }
        return out;
    }
}
