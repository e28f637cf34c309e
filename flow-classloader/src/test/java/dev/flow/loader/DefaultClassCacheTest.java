package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.loader.internal.ClassCache;
import flowtest.support.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The class cache is on by default, in a directory of the user's created owner-only; {@code noCache()}
 * and {@code -Ddev.flow.loader.cache=off} turn it off; a directory another user could write, or one that
 * cannot be created or written, is not used: the loader works without a cache and one warning says why.
 */
class DefaultClassCacheTest {

    @TempDir
    Path tmp;

    /** Runs {@link DefaultCacheJvm} with {@code XDG_CACHE_HOME} set to {@code home} and the options given. */
    private static ChildJvm child(Path home, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("-Xmx128m"));
        args.addAll(List.of(options));
        args.addAll(List.of("-cp", System.getProperty("java.class.path"), DefaultCacheJvm.class.getName()));
        ChildJvm j = ChildJvm.run(args, Map.of("XDG_CACHE_HOME", home.toString()), Duration.ofSeconds(120));
        assertEquals(0, j.exitCode, j::output);
        return j;
    }

    @Test
    void loaderWhoseBuilderChoosesNothingCachesInTheUsersCacheHomeCreatedOwnerOnly() throws Exception {
        Path home = tmp.resolve("xdg");
        ChildJvm first = child(home);
        Path root = home.resolve("flow").resolve("classes");
        assertTrue(first.line("dir ").startsWith("dir " + root + "/"), first::output);
        assertFalse(first.line("made ").equals("made 0"), first::output);
        for (Path d : List.of(home, home.resolve("flow"), root, Path.of(first.line("dir ").substring(4)))) {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(d)), d.toString());
        }
        ChildJvm second = child(home);
        assertEquals(first.line("dir "), second.line("dir "));
        assertEquals("made 0", second.line("made "), "every class of the second start comes from the cache: " + second.output());
    }

    @Test
    void cacheOffByPropertyWritesNothing() throws Exception {
        Path home = tmp.resolve("xdg");
        ChildJvm j = child(home, "-Ddev.flow.loader.cache=off");
        assertEquals("dir null", j.line("dir "), j::output);
        assertFalse(Files.exists(home), "nothing created");
    }

    @Test
    void noCacheOverridesTheDefault() throws Exception {
        String old = System.clearProperty(ContinuationClassLoader.Builder.CACHE_PROPERTY);
        try {
            assertNull(ContinuationClassLoader.builder().include(ClassCacheTest.SCOPE).noCache().build().cacheDirectory());
        } finally {
            if (old != null) {
                System.setProperty(ContinuationClassLoader.Builder.CACHE_PROPERTY, old);
            }
        }
    }

    /** Builds two loaders with their cache in {@code dir}; both must work without it, and one new warning must name it and {@code why}. */
    private static void refused(Path dir, String why) throws Exception {
        List<String> before = ClassCache.warnings();
        for (int i = 0; i < 2; i++) {
            ContinuationClassLoader loader = ContinuationClassLoader.builder().include(ClassCacheTest.SCOPE).cacheDirectory(dir).build();
            assertNull(loader.cacheDirectory(), "no cache in " + dir);
            assertEquals(ClassCacheTest.names().size(), ClassCacheTest.loadAll(loader).size());
        }
        List<String> added = new ArrayList<>(ClassCache.warnings());
        added.removeAll(before);
        assertEquals(1, added.size(), "one warning for two loaders: " + added);
        assertTrue(added.get(0).startsWith("class cache off: " + dir + " is not used because " + why), added.get(0));
    }

    private static long files(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).count();
        }
    }

    @Test
    void directoryOthersCanWriteIsRefusedWithOneWarning() throws Exception {
        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        refused(open, "it is writable by others than its owner (rwxrwxrwx)");
        Path group = Files.createDirectory(tmp.resolve("group"));
        Files.setPosixFilePermissions(group, PosixFilePermissions.fromString("rwxrwxr-x"));
        refused(group, "it is writable by others than its owner (rwxrwxr-x)");
        assertEquals(0, files(open) + files(group), "nothing written there");
    }

    @Test
    void directoryOfAnotherUserIsRefusedWithOneWarning() throws Exception {
        Path theirs = Files.createDirectory(tmp.resolve("theirs"));
        Files.setPosixFilePermissions(theirs, PosixFilePermissions.fromString("rwxr-xr-x"));
        UserPrincipal other;
        try {
            other = theirs.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
            Files.setOwner(theirs, other);
        } catch (IOException | UnsupportedOperationException e) {
            Assumptions.abort("cannot give a directory to another user here: " + e);
            return;
        }
        refused(theirs, "it belongs to " + other.getName() + ", not to ");
        assertEquals(0, files(theirs), "nothing written there");
    }

    @Test
    void directoryThatCannotBeCreatedFallsBackWithOneWarning() throws Exception {
        Path file = Files.createFile(tmp.resolve("a-file"));
        refused(file.resolve("cache"), "it cannot be created or written (");
    }
}
