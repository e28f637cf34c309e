package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.loader.ContinuationClassLoader;
import flowtest.mina.InterruptThenAwait;
import flowtest.mina.PinnedUninterruptibleAwait;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.mina.core.future.DefaultConnectFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue 7.7: MINA's interruptible {@code IoFuture.await} forms throw in a flow as on a plain thread. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class InterruptedIoFutureWaitTest {

    private static final ContinuationClassLoader LOADER = ContinuationClassLoader.builder()
            .include("flowtest.mina").strict(true).build();

    @ParameterizedTest(name = "await({0})")
    @ValueSource(longs = {-1, 5_000})
    void selfInterruptedFlowGetsInterruptedExceptionFromAwait(long millis) throws Exception {
        AtomicReference<String> plain = new AtomicReference<>();
        Thread t = new Thread(() -> plain.set(new InterruptThenAwait(new DefaultConnectFuture(), millis).call()));
        t.start();
        t.join(20_000);
        assertEquals("interrupted: null, flag false", plain.get(), "loaded normally on a plain thread");
        try (FlowScheduler s = FlowScheduler.builder().name("io-interrupt").build()) {
            @SuppressWarnings("unchecked")
            Callable<String> flow = LOADER.newInstance(Callable.class, "flowtest.mina.InterruptThenAwait",
                    new DefaultConnectFuture(), millis);
            assertEquals(plain.get(), s.submit(flow).get(Duration.ofSeconds(20)), "in a flow");
        }
    }

    @Test
    void pinnedUninterruptibleAwaitIgnoresTheInterruptAsOnAPlainThread() throws Exception {
        DefaultConnectFuture plainFuture = new DefaultConnectFuture();
        AtomicReference<String> plain = new AtomicReference<>();
        Thread t = new Thread(() -> plain.set(new PinnedUninterruptibleAwait(plainFuture).call()));
        t.start();
        Conditions.await("the plain thread to wait", () -> t.getState() == Thread.State.TIMED_WAITING, t::toString);
        plainFuture.cancel();
        t.join(20_000);
        assertEquals("done true", plain.get(), "loaded normally on a plain thread");
        ContinuationClassLoader lenient = ContinuationClassLoader.builder().include("flowtest.mina").build();
        try (FlowScheduler s = FlowScheduler.builder().name("io-pinned").build()) {
            DefaultConnectFuture flowFuture = new DefaultConnectFuture();
            @SuppressWarnings("unchecked")
            Callable<String> flow = lenient.newInstance(Callable.class, "flowtest.mina.PinnedUninterruptibleAwait", flowFuture);
            FlowHandle<String> h = s.submit(flow);
            Conditions.await("the pinned flow to wait", () -> h.isDone() || workerWaits("io-pinned-worker-0"), h::toString);
            flowFuture.cancel();
            assertEquals(plain.get(), h.get(Duration.ofSeconds(20)), "in a pinned flow");
        }
    }

    private static boolean workerWaits(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals(name) && t.getState() == Thread.State.TIMED_WAITING);
    }
}
