package dev.flow.loader.internal;

import java.io.IOException;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The versioned class files of multi-release jars, picked as the JDK picks them: only in a jar whose
 * manifest says {@code Multi-Release: true}, only {@code META-INF/versions/N/} with {@code 9 <= N <=}
 * the running feature version. Which version's bytes a class gets is left to the parent loader, which
 * reads such jars version-aware; this class only lists the classes that exist in versioned directories
 * alone, so that a library is not split between Flow's loader and its parent. Stateless.
 */
final class MultiRelease {

    private static final String VERSIONS = "META-INF/versions/";
    private static final int RUNTIME = Runtime.version().feature();

    private MultiRelease() {
    }

    /** Whether {@code jar}'s manifest declares it multi-release. */
    static boolean isMultiRelease(JarFile jar) throws IOException {
        Manifest m = jar.getManifest();
        return m != null && "true".equalsIgnoreCase(m.getMainAttributes().getValue(Attributes.Name.MULTI_RELEASE));
    }

    /**
     * The class file path {@code entry} stands for on the running JDK if it is a versioned entry that
     * applies to it and lies under {@code packagePath} (e.g. {@code META-INF/versions/11/a/B.class}
     * gives {@code a/B.class} on JDK 11 and later), else {@code null}.
     */
    static String applicableEntry(String entry, String packagePath) {
        if (!entry.startsWith(VERSIONS) || !entry.endsWith(".class")) {
            return null;
        }
        int slash = entry.indexOf('/', VERSIONS.length());
        if (slash < 0) {
            return null;
        }
        int version;
        try {
            version = Integer.parseInt(entry.substring(VERSIONS.length(), slash));
        } catch (NumberFormatException e) {
            return null;
        }
        String path = entry.substring(slash + 1);
        return version >= 9 && version <= RUNTIME && path.startsWith(packagePath + "/") ? path : null;
    }
}
