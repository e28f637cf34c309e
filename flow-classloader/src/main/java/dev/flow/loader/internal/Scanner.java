package dev.flow.loader.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Collection;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Lists the class files of packages (and their sub-packages) visible to a class loader, with the classes
 * that a multi-release jar adds for the running JDK ({@link MultiRelease}). A jar is found through the
 * loader's resources for the package's directory and, because a jar need not have entries for its
 * directories, also as a class path entry of the loader chain ({@link ClassPathKey#classPath}); each jar
 * is read once for all the packages, and a jar whose class files are in none of them (known from an
 * earlier read of the same jar in this process) is not read again. Thread-safe.
 */
final class Scanner {

    private static final String VERSIONS = "META-INF/versions/";
    /** The directories of the class files of each jar read, by path and content (see {@link #mayHold}). */
    private static final Map<String, Set<String>> DIRECTORIES = new ConcurrentHashMap<>();

    private Scanner() {
    }

    /** Internal names of all classes under {@code packagePath} (e.g. {@code com/example}). */
    static Set<String> classesUnder(ClassLoader loader, String packagePath) {
        return classesUnder(loader, List.of(packagePath));
    }

    /** Internal names of all classes under any of {@code packagePaths} (e.g. {@code com/example}). */
    static Set<String> classesUnder(ClassLoader loader, Collection<String> packagePaths) {
        Set<String> out = new TreeSet<>();
        // A jar by the URL of its file, with a URL of a resource in it to open it by if it is not a file.
        Map<URL, URL> jars = new LinkedHashMap<>();
        try {
            for (String packagePath : packagePaths) {
                Enumeration<URL> roots = loader.getResources(packagePath);
                while (roots.hasMoreElements()) {
                    URL url = roots.nextElement();
                    if ("file".equals(url.getProtocol())) {
                        directory(Paths.get(url.toURI()), packagePath, out);
                    } else if ("jar".equals(url.getProtocol())) {
                        jars.putIfAbsent(((JarURLConnection) url.openConnection()).getJarFileURL(), url);
                    }
                }
            }
            Set<Path> classPath = new LinkedHashSet<>();
            ClassPathKey.classPath(loader, classPath);
            for (Path p : classPath) {
                if (Files.isRegularFile(p)) {
                    jars.putIfAbsent(p.toUri().toURL(), null);
                }
            }
            for (Map.Entry<URL, URL> j : jars.entrySet()) {
                Path file = ClassPathKey.file(j.getKey());
                if (file != null) {
                    if (!mayHold(file, packagePaths)) {
                        continue;
                    }
                    try (JarFile jar = new JarFile(file.toFile(), false)) {
                        jar(jar, packagePaths, out);
                    } catch (java.util.zip.ZipException e) {
                        // a class path file that is not a jar holds no classes
                    }
                } else if (j.getValue() != null) {
                    JarURLConnection c = (JarURLConnection) j.getValue().openConnection();
                    c.setUseCaches(false);
                    try (JarFile jar = c.getJarFile()) {
                        jar(jar, packagePaths, out);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list packages " + packagePaths, e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot list packages " + packagePaths, e);
        }
        out.removeIf(n -> n.endsWith("module-info") || n.endsWith("package-info"));
        return out;
    }

    /**
     * Whether the jar {@code file} has class files under one of {@code packagePaths}, directly or in a
     * versioned directory, from the directories of its class files, remembered per content (size, time,
     * file key).
     */
    private static boolean mayHold(Path file, Collection<String> packagePaths) throws IOException {
        BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
        String key = file + " " + a.size() + " " + a.lastModifiedTime().toInstant() + " " + a.fileKey();
        Set<String> dirs = DIRECTORIES.get(key);
        if (dirs == null) {
            dirs = new HashSet<>();
            try (JarFile jar = new JarFile(file.toFile(), false)) {
                Enumeration<JarEntry> entries = jar.entries();
                while (entries.hasMoreElements()) {
                    String n = entries.nextElement().getName();
                    if (n.startsWith(VERSIONS)) {
                        // META-INF/versions/N/<name>: the directory of <name>
                        int version = n.indexOf('/', VERSIONS.length());
                        n = version < 0 ? "" : n.substring(version + 1);
                    }
                    int slash = n.lastIndexOf('/');
                    if (n.endsWith(".class") && slash > 0) {
                        dirs.add(n.substring(0, slash));
                    }
                }
            } catch (java.util.zip.ZipException e) {
                // not a jar: no classes
            }
            DIRECTORIES.put(key, dirs);
        }
        for (String d : dirs) {
            for (String p : packagePaths) {
                if (d.equals(p) || d.startsWith(p + "/")) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void directory(Path dir, String packagePath, Set<String> out) throws IOException {
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
    }

    private static void jar(JarFile jar, Collection<String> packagePaths, Set<String> out) throws IOException {
        boolean multiRelease = MultiRelease.isMultiRelease(jar);
        Enumeration<JarEntry> entries = jar.entries();
        while (entries.hasMoreElements()) {
            String name = entries.nextElement().getName();
            if (!name.endsWith(".class")) {
                continue;
            }
            for (String packagePath : packagePaths) {
                String n = name;
                if (multiRelease && n.startsWith("META-INF/")) {
                    n = MultiRelease.applicableEntry(n, packagePath);
                    if (n == null) {
                        continue;
                    }
                }
                if (n.startsWith(packagePath + "/") && !n.startsWith("META-INF/")) {
                    out.add(n.substring(0, n.length() - ".class".length()));
                }
            }
        }
    }
}
