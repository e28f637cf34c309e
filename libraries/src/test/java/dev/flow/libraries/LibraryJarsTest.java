package dev.flow.libraries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.internal.Pins;
import dev.flow.loader.ContinuationClassLoader;
import dev.flow.loader.InstrumentationException;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.zip.ZipFile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every class of real client jars from Maven Central, unmodified, loaded, linked and initialised
 * through a {@link ContinuationClassLoader} over the library's packages, lenient and strict:
 * <ul>
 *   <li>each class is defined by Flow's loader, multi-release classes included: no class of the
 *       library comes from the parent;
 *   <li>in lenient mode each class ends as it does loaded normally: no {@link VerifyError}, {@link
 *       ClassFormatError}, other {@link LinkageError} or {@link InstrumentationException}. A class
 *       that fails normally too (its optional dependency, OSGi, GraalVM, Conscrypt, JNA, Brotli, ...,
 *       is not on the class path) fails the same way, which is not the loader's doing;
 *   <li>a method the engine cannot instrument falls back in lenient mode, each of its suspension
 *       points reported as a pinned site, and is refused in strict mode when its class loads, with
 *       {@link InstrumentationException} naming the class, method, descriptor and the same reason.
 * </ul>
 * Only loading is tested here, not the libraries' client code against servers.
 */
class LibraryJarsTest {

    private static final String OK = "ok";
    private static final String FALL_BACK = ": the continuation engine cannot instrument this method (";

    /** A library: a class of its jar, and the packages the loader includes (its own and those of its I/O). */
    enum Library {
        JEDIS("redis.clients.jedis.Jedis", "redis.clients.jedis"),
        HTTPCLIENT5("org.apache.hc.client5.http.impl.classic.HttpClients", "org.apache.hc.client5", "org.apache.hc.core5"),
        PGJDBC("org.postgresql.Driver", "org.postgresql"),
        OKHTTP("okhttp3.OkHttpClient", "okhttp3", "okio"),
        COMMONS_NET("org.apache.commons.net.ftp.FTPClient", "org.apache.commons.net");

        final String anchor;
        final String[] packages;

        Library(String anchor, String... packages) {
            this.anchor = anchor;
            this.packages = packages;
        }
    }

    @ParameterizedTest
    @EnumSource(Library.class)
    void everyClassOfTheJarLoadsThroughFlowsLoaderAsItDoesNormally(Library library) throws Exception {
        check(library);
    }

    private static void check(Library library) throws Exception {
        List<String> classes = classesOf(library);
        Map<String, String> normally = outcomes(classes, LibraryJarsTest.class.getClassLoader());

        int before = Pins.warnings().size();
        Map<String, String> lenient = outcomes(classes, loader(library, false));
        List<String> fallBacks = Pins.warnings().subList(before, Pins.warnings().size()).stream()
                .filter(w -> w.contains(FALL_BACK)).collect(Collectors.toList());
        assertEquals(List.of(), differences(lenient, normally), "lenient: classes that end differently than loaded normally");

        Map<String, String> strict = outcomes(classes, loader(library, true));
        List<String> refusals = new ArrayList<>();
        for (Map.Entry<String, String> e : strict.entrySet()) {
            String refusal = "refused: " + InstrumentationException.class.getName() + ": cannot instrument " + e.getKey() + ".";
            if (e.getValue().startsWith(refusal)) {
                refusals.add(e.getKey());
                String method = e.getValue().substring(refusal.length(), e.getValue().indexOf(": ", refusal.length()));
                String reason = e.getValue().substring(e.getValue().indexOf(": ", refusal.length()) + 2);
                assertTrue(method.contains("(") && fallBacks.stream().anyMatch(w -> w.startsWith("cannot suspend at "
                                + e.getKey() + "." + method + " ") && w.contains(FALL_BACK + reason + ")")),
                        () -> "strict refusal " + e.getValue() + " names a method with its descriptor and the reason of a"
                                + " lenient fall-back: " + fallBacks);
            }
        }
        strict.keySet().removeAll(refusals);
        assertEquals(List.of(), differences(strict, normally), "strict: classes that end differently than loaded normally");
        List<String> fellBack = fallBacks.stream().map(w -> w.substring("cannot suspend at ".length(), w.indexOf('(')))
                .map(m -> m.substring(0, m.lastIndexOf('.'))).distinct().sorted().collect(Collectors.toList());
        assertEquals(fellBack, refusals.stream().sorted().collect(Collectors.toList()),
                "the classes strict mode refuses are those with lenient fall-backs");

        long failing = normally.values().stream().filter(v -> !v.equals(OK)).count();
        assertTrue(failing < 0.1 * classes.size(), () -> failing + " of " + classes.size() + " fail normally: " + normally);
        System.out.printf("%s: %d classes, %d fail loaded normally too (absent optional dependencies), %d fall-back sites, "
                + "strict refuses %s%n", library, classes.size(), failing, fallBacks.size(), refusals);
    }

    private static ContinuationClassLoader loader(Library library, boolean strict) {
        return ContinuationClassLoader.builder().include(library.packages).strict(strict).build();
    }

    /**
     * Loads every class through {@code loader}, then initialises each: how each ends ({@code "ok"}, the
     * error, or the class loader that defined it if not {@code loader} when that is Flow's).
     */
    private static Map<String, String> outcomes(List<String> classes, ClassLoader loader) {
        Map<String, String> out = new TreeMap<>();
        for (String name : classes) {
            try {
                Class<?> c = Class.forName(name, false, loader);
                if (loader instanceof ContinuationClassLoader && c.getClassLoader() != loader) {
                    out.put(name, "split: defined by " + c.getClassLoader());
                }
            } catch (InstrumentationException e) {
                out.put(name, "refused: " + e.getClass().getName() + ": " + e.getMessage());
            } catch (Throwable t) {
                out.put(name, describe(t));
            }
        }
        for (String name : classes) {
            if (!out.containsKey(name)) {
                try {
                    Class.forName(name, true, loader);
                    out.put(name, OK);
                } catch (Throwable t) {
                    out.put(name, describe(t));
                }
            }
        }
        return out;
    }

    private static List<String> differences(Map<String, String> through, Map<String, String> normally) {
        return through.entrySet().stream().filter(e -> !e.getValue().equals(normally.get(e.getKey())))
                .map(e -> e.getKey() + ": " + e.getValue() + " (loaded normally: " + normally.get(e.getKey()) + ")")
                .collect(Collectors.toList());
    }

    /** The type and message of {@code t} and of its cause: the same for the same failure in any loader. */
    private static String describe(Throwable t) {
        String s = t.getClass().getName() + ": " + t.getMessage();
        return t.getCause() == null ? s : s + " / " + t.getCause().getClass().getName() + ": " + t.getCause().getMessage();
    }

    /** The binary names of the classes of the library's jar, as the running JDK sees a multi-release jar. */
    private static List<String> classesOf(Library library) throws ClassNotFoundException, IOException, URISyntaxException {
        Class<?> anchor = Class.forName(library.anchor, false, LibraryJarsTest.class.getClassLoader());
        File file = new File(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (JarFile jar = new JarFile(file, true, ZipFile.OPEN_READ, Runtime.version())) {
            return jar.versionedStream().map(JarEntry::getName)
                    .filter(n -> n.endsWith(".class") && !n.startsWith("META-INF/") && !n.endsWith("module-info.class")
                            && !n.endsWith("package-info.class"))
                    .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
                    .sorted().collect(Collectors.toList());
        }
    }
}
