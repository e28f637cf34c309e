package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A jar written without directory entries (only the class files' own entries, as some build tools and
 * shading write them) is scanned like any other: its classes in an included package are Flow's, found
 * suspendable, and a package split between such a jar and a jar with directory entries is not split
 * across loaders. {@code nodirs.Sleeper.nap()} sleeps 1 ms (a suspension point) and returns 7; {@code
 * nodirs.Other} exists only in the second jar.
 */
class JarWithoutDirectoryEntriesTest {

    @TempDir
    Path dir;

    @Test
    void classesOfAJarWithoutDirectoryEntriesAreFlowsAndInstrumented() throws Exception {
        Path jar = jar("nodirs.jar", false, "nodirs/Sleeper");
        try (URLClassLoader parent = new URLClassLoader(new URL[] {jar.toUri().toURL()}, getClass().getClassLoader())) {
            ContinuationClassLoader loader = ContinuationClassLoader.builder().include("nodirs").parent(parent).noCache().build();
            Class<?> c = Class.forName("nodirs.Sleeper", false, loader);
            assertSame(loader, c.getClassLoader(), "defined by Flow's loader, not the parent");
            assertTrue(loader.isSuspendable("nodirs/Sleeper", "nap", "()I"));
            assertEquals(7, c.getMethod("nap").invoke(null));
        }
    }

    @Test
    void packageSplitBetweenJarsWithAndWithoutDirectoryEntriesIsWhollyFlows() throws Exception {
        Path with = jar("with.jar", true, "nodirs/Other");
        Path without = jar("without.jar", false, "nodirs/Sleeper");
        try (URLClassLoader parent = new URLClassLoader(new URL[] {with.toUri().toURL(), without.toUri().toURL()},
                getClass().getClassLoader())) {
            ContinuationClassLoader loader = ContinuationClassLoader.builder().include("nodirs").parent(parent).noCache().build();
            assertSame(loader, Class.forName("nodirs.Other", false, loader).getClassLoader());
            assertSame(loader, Class.forName("nodirs.Sleeper", false, loader).getClassLoader());
        }
    }

    /** A jar holding the classes named, each with {@code Sleeper}'s {@code nap()}, with or without directory entries. */
    private Path jar(String name, boolean directories, String... classes) throws IOException {
        Path jar = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out)) {
            if (directories) {
                j.putNextEntry(new JarEntry("nodirs/"));
                j.closeEntry();
            }
            for (String c : classes) {
                j.putNextEntry(new JarEntry(c + ".class"));
                j.write(ClassCacheTest.staticIntMethod(c, "nap", true, 7));
                j.closeEntry();
            }
        }
        return jar;
    }
}
