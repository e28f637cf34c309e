package dev.flow.loader;

/**
 * The main class of a JVM that builds a loader the way an application would, choosing no cache
 * ({@code DefaultClassCacheTest}): loads every fixture class of {@link ClassCacheTest#SCOPE}, then prints
 * {@code dir <its cache directory, or null>} and {@code made <class files it instrumented>}.
 */
final class DefaultCacheJvm {

    private DefaultCacheJvm() {
    }

    public static void main(String[] args) throws Exception {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include(ClassCacheTest.SCOPE).build();
        ClassCacheTest.loadAll(loader);
        System.out.println("dir " + loader.cacheDirectory());
        System.out.println("made " + loader.classFilesMade());
    }
}
