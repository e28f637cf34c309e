package dev.flow.loader.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Enumeration;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Lists the class files of a package (and its sub-packages) visible to a class loader, with the classes
 * that a multi-release jar adds for the running JDK ({@link MultiRelease}).
 */
final class Scanner {

    private Scanner() {
    }

    /** Internal names of all classes under {@code packagePath} (e.g. {@code com/example}). */
    static Set<String> classesUnder(ClassLoader loader, String packagePath) {
        Set<String> out = new TreeSet<>();
        try {
            Enumeration<URL> roots = loader.getResources(packagePath);
            while (roots.hasMoreElements()) {
                URL url = roots.nextElement();
                if ("file".equals(url.getProtocol())) {
                    Path dir = Paths.get(url.toURI());
                    Path base = dir;
                    for (int i = packagePath.split("/").length; i > 0; i--) {
                        base = base.getParent();
                    }
                    try (Stream<Path> files = Files.walk(dir)) {
                        Path root = base;
                        files.filter(p -> p.toString().endsWith(".class"))
                                .map(p -> root.relativize(p).toString().replace('\\', '/'))
                                .map(s -> s.substring(0, s.length() - ".class".length()))
                                .forEach(out::add);
                    }
                } else if ("jar".equals(url.getProtocol())) {
                    JarURLConnection c = (JarURLConnection) url.openConnection();
                    c.setUseCaches(false);
                    try (JarFile jar = c.getJarFile()) {
                        boolean multiRelease = MultiRelease.isMultiRelease(jar);
                        Enumeration<JarEntry> entries = jar.entries();
                        while (entries.hasMoreElements()) {
                            String n = entries.nextElement().getName();
                            if (multiRelease && n.startsWith("META-INF/")) {
                                n = MultiRelease.applicableEntry(n, packagePath);
                                if (n == null) {
                                    continue;
                                }
                            }
                            if (n.startsWith(packagePath + "/") && n.endsWith(".class")
                                    && !n.startsWith("META-INF/")) {
                                out.add(n.substring(0, n.length() - ".class".length()));
                            }
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list package " + packagePath, e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot list package " + packagePath, e);
        }
        out.removeIf(n -> n.endsWith("module-info") || n.endsWith("package-info"));
        return out;
    }
}
