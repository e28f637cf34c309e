package dev.flow.maven;

import dev.flow.loader.InstrumentationException;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Goal {@code verify}: prints every pin site of the included classes, one line each in stack-trace style
 * ({@code com.example.Foo.bar(Foo.java:42): reason}), then {@code N pin sites}, on standard output (so
 * that {@code mvn -q} shows it), without running any code; fails when {@code <strict>true</strict>} and
 * a pin site exists. Reads the compiled classes, or their kept originals after {@code instrument}.
 */
@Mojo(name = "verify", defaultPhase = LifecyclePhase.PROCESS_CLASSES, requiresDependencyResolution = ResolutionScope.COMPILE,
        threadSafe = true)
public final class VerifyMojo extends AbstractFlowMojo {

    PrintStream out = System.out;

    /** Prints the report. */
    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        List<BuildTime.PinSite> sites;
        try {
            sites = buildTime().run(false);
        } catch (InstrumentationException | IllegalArgumentException e) {
            throw new MojoFailureException(e.getMessage(), e);
        } catch (IOException e) {
            throw new MojoExecutionException("cannot analyse " + classesDirectory + ": " + e, e);
        }
        for (BuildTime.PinSite s : sites) {
            out.println(s);
        }
        out.println(sites.size() + " pin sites");
        if (strict && !sites.isEmpty()) {
            throw new MojoFailureException(sites.size() + " pin sites (expected: none with <strict>true</strict>)");
        }
    }
}
