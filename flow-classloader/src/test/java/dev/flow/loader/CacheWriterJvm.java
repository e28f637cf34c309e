package dev.flow.loader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The main class of a JVM that writes a class cache at the same time as another
 * ({@code ClassCacheTest.twoJvmsWritingOneCacheAtOnceLeaveOnlyValidEntries}): builds a loader over the
 * test's fixtures with the cache in {@code args[0]}, creates the file {@code args[1]}, waits up to 60 s
 * for the file {@code args[2]}, then loads every fixture class and prints {@code made <n>}. Exits 2 if
 * the file does not appear.
 */
final class CacheWriterJvm {

    private CacheWriterJvm() {
    }

    public static void main(String[] args) throws Exception {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include(ClassCacheTest.SCOPE)
                .cacheDirectory(Paths.get(args[0])).build();
        Files.createFile(Paths.get(args[1]));
        Path go = Paths.get(args[2]);
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!Files.exists(go)) {
            if (System.nanoTime() > deadline) {
                System.out.println("no start within 60 s");
                System.exit(2);
            }
            Thread.sleep(2);
        }
        ClassCacheTest.loadAll(loader);
        System.out.println("made " + loader.classFilesMade());
    }
}
