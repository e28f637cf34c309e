package dev.flow.maven;

import java.io.File;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The build-time route for a test: the classes of some packages, taken from this JVM's class path
 * (directories or jars, test classes left out), written to a classes directory and instrumented there
 * by the {@code instrument} goal's {@link BuildTime}, as {@code mvn process-classes} would. Stateless.
 */
public final class SampleBuildTime {

    private SampleBuildTime() {
    }

    /**
     * {@code <classes directory> <package>...}: instruments the packages into the directory (its originals
     * kept beside it, in {@code <directory>-originals}) and prints the pin sites; used by {@code
     * bench/startup-routes.sh}.
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            throw new IllegalArgumentException("arguments: " + List.of(args) + " (expected: <classes directory> <package>...)");
        }
        Path classes = Path.of(args[0]);
        List<String> sites = instrument(List.of(args).subList(1, args.length), classes,
                classes.resolveSibling(classes.getFileName() + "-originals"));
        sites.forEach(System.out::println);
        System.out.println(sites.size() + " pin sites");
    }

    /**
     * Copies {@code packages} into {@code classes} and instruments them (lenient); returns the pin sites
     * found, in stack-trace style.
     */
    public static List<String> instrument(List<String> packages, Path classes, Path originals) throws IOException {
        List<Path> classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator)).map(Path::of)
                .collect(Collectors.toList());
        for (String p : packages) {
            String dir = p.replace('.', '/');
            for (Path e : classPath) {
                if (!e.toString().contains("test-classes") && !e.toString().endsWith("-tests.jar")) {
                    copy(e, dir, classes);
                }
            }
        }
        return new BuildTime(classes, originals, classPath, packages, List.of(), false).run(true).stream()
                .map(BuildTime.PinSite::toString).collect(Collectors.toList());
    }

    /** Copies the files directly in package directory {@code dir} of class path entry {@code entry}, if it has it. */
    private static void copy(Path entry, String dir, Path to) throws IOException {
        if (Files.isDirectory(entry)) {
            copyFiles(entry.resolve(dir), dir, to);
        } else if (Files.isRegularFile(entry) && entry.toString().endsWith(".jar")) {
            try (FileSystem jar = FileSystems.newFileSystem(entry)) {
                copyFiles(jar.getPath(dir), dir, to);
            }
        }
    }

    private static void copyFiles(Path from, String dir, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            return;
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(from)) {
            files = s.filter(Files::isRegularFile).collect(Collectors.toCollection(ArrayList::new));
        }
        Path target = to.resolve(dir);
        Files.createDirectories(target);
        for (Path f : files) {
            Files.copy(f, target.resolve(f.getFileName().toString()), StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
