package dev.flow.maven;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugins.annotations.Parameter;

/** The configuration the goals share. Maven runs each goal on one thread. */
abstract class AbstractFlowMojo extends AbstractMojo {

    /**
     * The packages to instrument (and their sub-packages), e.g. {@code com.example.proto}; on the command
     * line {@code -Dflow.includes=com.example.proto,com.example.more}. Required.
     */
    @Parameter(property = "flow.includes")
    List<String> includes = new ArrayList<>();

    /** Packages under the included ones to leave as compiled. */
    @Parameter
    List<String> excludes = new ArrayList<>();

    /**
     * Strict: a flow that reaches an await where it cannot suspend is refused there (at run time), a
     * method the engine cannot instrument refuses the build, and {@code verify} fails on any pin site.
     * Default {@code false}.
     */
    @Parameter(property = "flow.strict", defaultValue = "false")
    boolean strict;

    /** The project's compiled classes. */
    @Parameter(defaultValue = "${project.build.outputDirectory}", readonly = true, required = true)
    File classesDirectory;

    /** Where the compiled form of the included classes is kept between runs. */
    @Parameter(defaultValue = "${project.build.directory}/flow-original-classes", readonly = true, required = true)
    File originalsDirectory;

    /** The project's class path. */
    @Parameter(defaultValue = "${project.compileClasspathElements}", readonly = true, required = true)
    List<String> classpathElements = new ArrayList<>();

    BuildTime buildTime() {
        List<Path> cp = new ArrayList<>();
        for (String e : classpathElements) {
            Path p = Path.of(e);
            if (!p.equals(classesDirectory.toPath())) {
                cp.add(p);
            }
        }
        return new BuildTime(classesDirectory.toPath(), originalsDirectory.toPath(), cp, includes, excludes, strict);
    }
}
