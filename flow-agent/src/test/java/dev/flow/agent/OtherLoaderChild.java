package dev.flow.agent;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * The main class of a JVM that {@link AgentJvmTest} starts under the agent: {@code <directory> <class>}
 * loads the class through a {@code URLClassLoader} over the directory (which the class path does not
 * hold), runs a new instance as a flow on one worker, completes the class's {@code GATE} future once the
 * flow has suspended on it (or after 20 s) and prints {@code OUTCOME <value> resumed=<n>}.
 */
public final class OtherLoaderChild {

    private OtherLoaderChild() {
    }

    /** Runs the class named by {@code args[1]} from directory {@code args[0]}. */
    public static void main(String[] args) throws Exception {
        try (URLClassLoader loader = new URLClassLoader(new URL[] {Path.of(args[0]).toUri().toURL()},
                OtherLoaderChild.class.getClassLoader());
             FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("other-loader").build()) {
            Class<?> type = loader.loadClass(args[1]);
            FlowHandle<?> h = s.submit((Callable<?>) type.getDeclaredConstructor().newInstance());
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (s.stats().suspended() != 1 && !h.isDone() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            @SuppressWarnings("unchecked")
            CompletableFuture<String> gate = (CompletableFuture<String>) type.getField("GATE").get(null);
            gate.complete("waited");
            Object value = h.get(Duration.ofSeconds(20));
            System.out.println("OUTCOME " + value + " resumed=" + s.stats().resumed());
        }
    }
}
