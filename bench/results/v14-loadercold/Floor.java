import java.lang.management.*;
import java.net.*;
import java.nio.file.*;
import java.util.*;
import java.util.jar.*;
import org.objectweb.asm.*;
import org.objectweb.asm.tree.*;

/** Scratch: cold cost of ASM passes over the same 50 classes LoaderBuild loads (not in the repository). */
public class Floor {
    public static void main(String[] a) throws Exception {
        String mode = a[0];
        String[] jars = a[1].split(":");
        String[] inc = a[2].split(",");
        List<String> all = new ArrayList<>(new TreeSet<>(names(jars, inc)));
        List<String> sample = new ArrayList<>();
        for (int i = 0; i < 50; i++) sample.add(all.get((int) ((long) i * all.size() / 50)));
        URL[] urls = new URL[jars.length];
        for (int i = 0; i < jars.length; i++) urls[i] = Paths.get(jars[i]).toUri().toURL();
        URLClassLoader src = new URLClassLoader(urls, null);
        ThreadMXBean t = ManagementFactory.getThreadMXBean();
        long c0 = t.getCurrentThreadCpuTime();
        if (mode.equals("plain")) {
            URLClassLoader p = new URLClassLoader(urls, Floor.class.getClassLoader());
            for (String n : sample) Class.forName(n, false, p);
        } else {
            for (String n : sample) {
                byte[] b;
                try (var in = src.getResourceAsStream(n.replace('.', '/') + ".class")) { b = in.readAllBytes(); }
                if (mode.equals("copy")) {          // reader -> writer, constant pool copied, no frames
                    ClassReader r = new ClassReader(b); ClassWriter w = new ClassWriter(r, 0); r.accept(w, 0); w.toByteArray();
                } else if (mode.equals("rewrite")) { // reader -> writer, nothing copied
                    ClassReader r = new ClassReader(b); ClassWriter w = new ClassWriter(0); r.accept(w, 0); w.toByteArray();
                } else if (mode.equals("tree")) {    // reader -> ClassNode -> writer
                    ClassReader r = new ClassReader(b); ClassNode cn = new ClassNode(); r.accept(cn, 0);
                    ClassWriter w = new ClassWriter(0); cn.accept(w); w.toByteArray();
                } else if (mode.equals("parse")) {
                    new ClassReader(b).accept(new ClassNode(), 0);
                }
            }
        }
        System.out.printf("%s: cpu %.3f s%n", mode, (t.getCurrentThreadCpuTime() - c0) / 1e9);
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
