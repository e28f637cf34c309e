package flowtest.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link ChildJvm} leaves no process behind when its wait is interrupted or its deadline passes. */
class ChildJvmTest {

    private static final List<String> SLEEPER = List.of("-Xmx32m", "-cp", System.getProperty("java.class.path"),
            SleepingParent.class.getName());

    /** Every process a test saw started, killed after it whatever the outcome (a red run leaks nothing). */
    private final List<ProcessHandle> seen = new ArrayList<>();

    @AfterEach
    void killWhatIsLeft() {
        seen.forEach(ProcessHandle::destroyForcibly);
    }

    @Test
    void interruptedRunKillsTheChildAndItsDescendantsAndKeepsTheInterrupt() throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean flagAfter = new AtomicBoolean();
        Thread runner = new Thread(() -> {
            try {
                ChildJvm.run(SLEEPER, Duration.ofMinutes(5));
            } catch (Throwable t) {
                thrown.set(t);
            }
            flagAfter.set(Thread.currentThread().isInterrupted());
        }, "child-jvm-runner");
        runner.start();
        ProcessHandle child = awaitChild(runner);
        ProcessHandle grandchild = awaitDescendant(child);

        runner.interrupt();
        runner.join(30_000);

        assertFalse(runner.isAlive(), "run returned within 30 s of the interrupt");
        assertFalse(child.isAlive(), "the child JVM is dead when run returns");
        assertEnds(grandchild);
        assertInstanceOf(InterruptedException.class, thrown.get());
        assertTrue(flagAfter.get(), "the runner's interrupt flag is set after run");
    }

    @Test
    void runPastItsDeadlineKillsTheChildAndItsDescendants() throws Exception {
        ChildJvm j = ChildJvm.run(SLEEPER, Duration.ofSeconds(10));

        assertEquals(-1, j.exitCode, j::output);
        String line = j.line("grandchild ");
        assertNotNull(line, () -> "the child started its own process within 10 s: " + j.output());
        Optional<ProcessHandle> grandchild = ProcessHandle.of(Long.parseLong(line.substring("grandchild ".length())));
        grandchild.ifPresent(seen::add);
        grandchild.ifPresent(ChildJvmTest::assertEnds);
    }

    /** The sleeper JVM this process started, once it runs (within 60 s, while {@code runner} waits for it). */
    private ProcessHandle awaitChild(Thread runner) throws InterruptedException {
        return awaitFirst(() -> ProcessHandle.current().children()
                .filter(p -> p.info().commandLine().orElse("").contains(SleepingParent.class.getName())),
                runner::isAlive, "the child JVM");
    }

    /** The {@code sleep} process {@code child} started, once it runs (within 60 s). */
    private ProcessHandle awaitDescendant(ProcessHandle child) throws InterruptedException {
        return awaitFirst(child::descendants, child::isAlive, "the child's own process");
    }

    /** The first of {@code candidates} once there is one, polled for up to 60 s while {@code waiting} holds. */
    private ProcessHandle awaitFirst(Supplier<Stream<ProcessHandle>> candidates, BooleanSupplier waiting, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (;;) {
            Optional<ProcessHandle> found = candidates.get().findFirst();
            if (found.isPresent()) {
                seen.add(found.get());
                return found.get();
            }
            assertTrue(waiting.getAsBoolean(), () -> what + " was seen before what starts it ended");
            assertTrue(System.nanoTime() < deadline, () -> what + " started within 60 s");
            Thread.sleep(10);
        }
    }

    /** Waits up to 10 s for {@code p} (not a child of this process, so polled) to end. */
    private static void assertEnds(ProcessHandle p) {
        try {
            p.onExit().get(10, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("process " + p.pid() + " " + p.info().commandLine().orElse("")
                    + " still alive 10 s after ChildJvm.run returned", e);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
