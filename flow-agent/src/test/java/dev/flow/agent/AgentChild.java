package dev.flow.agent;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.internal.Pins;
import flowtest.agent.Direct;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The main class of the JVM that {@link AgentJvmTest} starts under the agent: it submits a plain {@code
 * new Direct(...)} and then each fixture named on the command line as flows on one worker, and prints
 * one line per outcome ({@code OUTCOME <class> <value or thrown> resumed=<n>}; a name {@code load:<class>}
 * only loads and initialises the class: {@code LOAD <class> loaded} or what it threw), the pin warnings and
 * whether the scheduler ended idle.
 */
public final class AgentChild {

    private AgentChild() {
    }

    /** Runs the fixtures named by {@code args}. */
    public static void main(String[] args) throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("agent-child").build()) {
            CompletableFuture<String> f = new CompletableFuture<>();
            FlowHandle<String> direct = s.submit(new Direct(f));
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (s.stats().suspended() != 1 && !direct.isDone() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            System.out.println("DIRECT suspended=" + s.stats().suspended());
            f.complete("x");
            System.out.println("OUTCOME " + Direct.class.getName() + " " + outcome(direct));
            for (String name : args) {
                if (name.startsWith("load:")) {
                    System.out.println("LOAD " + load(name.substring("load:".length())));
                    continue;
                }
                Callable<?> fixture = (Callable<?>) Class.forName(name).getDeclaredConstructor().newInstance();
                long resumed = s.stats().resumed();
                String o = outcome(s.submit(fixture));
                System.out.println("OUTCOME " + name + " " + o + " resumed=" + (s.stats().resumed() - resumed));
            }
            while (!s.stats().isIdle() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            System.out.println("IDLE " + s.stats().isIdle());
        } catch (Throwable t) {
            System.out.println("FAILED " + t);
            t.printStackTrace(System.out);
        }
        for (String w : Pins.warnings()) {
            System.out.println("WARNING " + w);
        }
    }

    private static String load(String name) {
        try {
            Class.forName(name);
            return name + " loaded";
        } catch (Throwable t) {
            return name + " threw " + t + " caused by " + t.getCause();
        }
    }

    private static String outcome(FlowHandle<?> h) throws InterruptedException {
        try {
            return "= " + h.get(Duration.ofSeconds(20));
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            while (c.getCause() != null && !(c instanceof dev.flow.UnsuspendableFrameException)) {
                c = c.getCause();
            }
            return "threw " + c;
        } catch (java.util.concurrent.TimeoutException e) {
            return "timed out";
        }
    }
}
