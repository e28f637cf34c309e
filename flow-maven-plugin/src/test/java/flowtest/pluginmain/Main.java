package flowtest.pluginmain;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.internal.Pins;
import flowtest.plugin.Pinned;
import flowtest.plugin.Task;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The main class of the JVM that runs the build-time-instrumented fixture with only Flow's runtime jars:
 * prints whether a plain {@code new Task(...)} suspended, its value, {@code Pinned}'s value, the pin
 * warnings and whether the scheduler ended idle.
 */
public final class Main {

    private Main() {
    }

    /** Runs the fixtures. */
    public static void main(String[] args) throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("build-time").build()) {
            CompletableFuture<String> f = new CompletableFuture<>();
            FlowHandle<String> task = s.submit(new Task(f));
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (s.stats().suspended() != 1 && !task.isDone() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            System.out.println("TASK suspended=" + s.stats().suspended());
            f.complete("x");
            System.out.println("TASK = " + task.get(Duration.ofSeconds(20)));
            try {
                System.out.println("PINNED = " + s.submit(new Pinned()).get(Duration.ofSeconds(20)));
            } catch (ExecutionException e) {
                System.out.println("PINNED threw " + e.getCause());
            }
            while (!s.stats().isIdle() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            System.out.println("IDLE " + s.stats().isIdle());
        }
        for (String w : Pins.warnings()) {
            System.out.println("WARNING " + w);
        }
    }
}
