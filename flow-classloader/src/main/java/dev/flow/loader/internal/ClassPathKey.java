package dev.flow.loader.internal;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.CodeSource;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;

/**
 * Identifies by content everything a scope's class files can be made from: the class path of a loader
 * chain, Flow's own jars and its engine's, and the JDK. A jar is identified by its entries' names, sizes
 * and CRC-32 checksums (the jar's own record of its contents, read from its central directory without
 * inflating anything) and the jars its manifest's {@code Class-Path} names; a directory by the SHA-256
 * of each class file and service provider list under it; the JDK by its version, vendor and home. Within one process a file's identity
 * is remembered while its size and modification time stay the same. Stateless but for that memo;
 * thread-safe.
 */
final class ClassPathKey {

    /** Classes whose jars make the rewriting: Flow's, the engine's, ASM's. */
    private static final List<String> OWN = List.of("dev.flow.loader.internal.Scope", "dev.flow.internal.Pins",
            "org.apache.commons.javaflow.providers.core.ContinuableClassTransformationFactory",
            "org.apache.commons.javaflow.spi.ResourceLoader", "net.tascalate.asmx.ClassReader",
            "org.objectweb.asm.ClassReader", "org.objectweb.asm.tree.ClassNode", "org.objectweb.asm.tree.analysis.Analyzer",
            "org.objectweb.asm.commons.Remapper");
    private static final String APP_LOADER = "jdk.internal.loader.ClassLoaders$AppClassLoader";
    private static final Map<String, byte[]> MEMO = new ConcurrentHashMap<>();

    private ClassPathKey() {
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    /**
     * Adds the identity of the JDK, of Flow's own jars and of every class path entry of {@code parent}
     * and its ancestors to {@code md}; {@code false} if one of them cannot be identified by content.
     */
    static boolean update(MessageDigest md, ClassLoader parent) {
        update(md, "jdk " + Runtime.version() + " " + System.getProperty("java.vm.vendor") + " " + System.getProperty("java.home"));
        Set<Path> paths = new LinkedHashSet<>();
        for (String name : OWN) {
            Path p = codeSource(name);
            if (p != null) {
                paths.add(p);
            } else if (name.startsWith("dev.flow")) {
                return false;
            }
        }
        if (!classPath(parent, paths)) {
            return false;
        }
        paths.addAll(split(System.getProperty("jdk.boot.class.path.append", "")));
        Set<Path> seen = new LinkedHashSet<>();
        try {
            for (Path p : paths) {
                entry(md, p, seen);
            }
        } catch (IOException | UncheckedIOException e) {
            return false;
        }
        return true;
    }

    /**
     * Adds the class path entries (files and directories) of {@code parent} and its ancestors below the
     * platform loader to {@code into}; {@code false} if one of them is neither the application class
     * loader nor a {@code URLClassLoader} over files and directories (what can be listed is added all the same).
     */
    static boolean classPath(ClassLoader parent, Set<Path> into) {
        boolean all = true;
        for (ClassLoader l = parent; l != null; l = l.getParent()) {
            if (l == ClassLoader.getPlatformClassLoader()) {
                break;
            }
            if (l.getClass().getName().equals(APP_LOADER)) {
                into.addAll(split(System.getProperty("java.class.path", "")));
                into.addAll(split(System.getProperty("jdk.module.path", "")));
            } else if (l instanceof URLClassLoader) {
                for (URL u : ((URLClassLoader) l).getURLs()) {
                    Path p = file(u);
                    if (p == null) {
                        all = false;
                    } else {
                        into.add(p);
                    }
                }
            } else {
                all = false;
            }
        }
        return all;
    }

    private static void update(MessageDigest md, String s) {
        md.update(s.getBytes(StandardCharsets.UTF_8));
        md.update((byte) '\n');
    }

    private static Path codeSource(String className) {
        try {
            CodeSource cs = Class.forName(className, false, ClassPathKey.class.getClassLoader()).getProtectionDomain().getCodeSource();
            return cs == null || cs.getLocation() == null ? null : file(cs.getLocation());
        } catch (ClassNotFoundException | LinkageError | SecurityException e) {
            return null;
        }
    }

    /** The file or directory of a {@code file:} URL, absolute and normalised; {@code null} for another URL. */
    static Path file(URL u) {
        if (!"file".equals(u.getProtocol())) {
            return null;
        }
        try {
            return Paths.get(u.toURI()).toAbsolutePath().normalize();
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }

    private static List<Path> split(String classPath) {
        List<Path> out = new ArrayList<>();
        if (classPath.isEmpty()) {
            return out;
        }
        for (String e : classPath.split(File.pathSeparator, -1)) {
            out.add(Paths.get(e.isEmpty() ? "." : e).toAbsolutePath().normalize());
        }
        return out;
    }

    /** Adds one class path entry (and those its manifest names) to {@code md}. */
    private static void entry(MessageDigest md, Path p, Set<Path> seen) throws IOException {
        if (!seen.add(p)) {
            return;
        }
        update(md, "entry " + p);
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(p, BasicFileAttributes.class);
        } catch (IOException e) {
            update(md, "absent");
            return;
        }
        if (a.isDirectory()) {
            List<Path> files;
            try (Stream<Path> s = Files.walk(p)) {
                files = s.filter(f -> isRead(p.relativize(f))).filter(Files::isRegularFile).sorted().collect(Collectors.toList());
            }
            for (Path f : files) {
                update(md, p.relativize(f).toString());
                md.update(memo(f, "file", () -> sha256().digest(Files.readAllBytes(f))));
            }
            return;
        }
        md.update(memo(p, "jar", () -> jar(p)));
        for (String cp : manifestClassPath(p)) {
            entry(md, p.getParent().resolve(cp).toAbsolutePath().normalize(), seen);
        }
    }

    /**
     * Whether the analysis can read the file at {@code relative} in a class path directory: a class file or
     * a service provider list ({@code META-INF/services/}). Other files (a build's reports beside its
     * classes when the working directory is on the class path) change nothing the loader defines.
     */
    private static boolean isRead(Path relative) {
        String r = relative.toString().replace(File.separatorChar, '/');
        return r.endsWith(".class") || r.startsWith("META-INF/services/");
    }

    /** The identity of the jar (or other file) {@code p}: its entries' names, sizes and CRC-32s, else its bytes. */
    private static byte[] jar(Path p) throws IOException {
        MessageDigest md = sha256();
        try (JarFile jar = new JarFile(p.toFile(), false)) {
            Enumeration<? extends ZipEntry> entries = jar.entries();
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                update(md, e.getName() + " " + e.getSize() + " " + e.getCrc());
            }
        } catch (java.util.zip.ZipException e) {
            return sha256().digest(Files.readAllBytes(p));
        }
        return md.digest();
    }

    private static List<String> manifestClassPath(Path p) throws IOException {
        List<String> out = new ArrayList<>();
        try (JarFile jar = new JarFile(p.toFile(), false)) {
            Manifest m = jar.getManifest();
            String cp = m == null ? null : m.getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
            if (cp != null) {
                for (String s : cp.trim().split("\\s+")) {
                    if (!s.isEmpty()) {
                        out.add(manifestPath(s));
                    }
                }
            }
        } catch (java.util.zip.ZipException e) {
            return out;
        }
        return out;
    }

    /** A manifest {@code Class-Path} item (a relative URL) as a path. */
    private static String manifestPath(String s) {
        try {
            return s.startsWith("file:") ? Paths.get(new java.net.URI(s)).toString()
                    : java.net.URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (URISyntaxException | IllegalArgumentException e) {
            return s;
        }
    }

    private interface Digest {
        byte[] of() throws IOException;
    }

    private static byte[] memo(Path p, String kind, Digest d) throws IOException {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
        String k = kind + " " + p + " " + a.size() + " " + a.lastModifiedTime().toInstant() + " " + a.fileKey();
        byte[] cached = MEMO.get(k);
        if (cached == null) {
            cached = d.of();
            MEMO.put(k, cached);
        }
        return cached;
    }
}
