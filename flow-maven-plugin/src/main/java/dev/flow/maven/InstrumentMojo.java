package dev.flow.maven;

import dev.flow.loader.InstrumentationException;
import java.io.IOException;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Goal {@code instrument}: rewrites the included classes in {@code target/classes} as the {@code
 * ContinuationClassLoader} would define them, so that the packaged jar runs suspended with only Flow's
 * runtime jars (flow-core, JavaFlow's api) on the class path, after the project's own classes: the
 * instrumented copies of Flow's {@code Awaits}, {@code PrimitiveAwaits} and {@code FlowRoot} are written
 * with them. Pin sites are logged as warnings. Bound to {@code process-classes}.
 */
@Mojo(name = "instrument", defaultPhase = LifecyclePhase.PROCESS_CLASSES, requiresDependencyResolution = ResolutionScope.COMPILE,
        threadSafe = true)
public final class InstrumentMojo extends AbstractFlowMojo {

    /** Instruments the classes. */
    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        List<BuildTime.PinSite> sites;
        try {
            sites = buildTime().run(true);
        } catch (InstrumentationException | IllegalArgumentException e) {
            throw new MojoFailureException(e.getMessage(), e);
        } catch (IOException e) {
            throw new MojoExecutionException("cannot instrument " + classesDirectory + ": " + e, e);
        }
        for (BuildTime.PinSite s : sites) {
            getLog().warn("pin site: " + s);
        }
        getLog().info("instrumented " + includes + (strict ? " (strict)" : "") + ": " + sites.size() + " pin sites");
    }
}
