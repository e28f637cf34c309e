package dev.flow.mina;

import dev.flow.FlowScheduler;
import dev.flow.Transport;
import dev.flow.TransportContractTest;
import dev.flow.loader.ContinuationClassLoader;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.LongAdder;

/**
 * Continuation mode for the transport contract: each operation runs as a flow of {@code
 * flowtest.mina.TransportOp}, loaded through a strict {@link ContinuationClassLoader}, on one shared
 * worker, so a wait that could not suspend would fail the test.
 */
final class FlowOps implements TransportContractTest.FlowRunner {

    static final FlowOps INSTANCE = new FlowOps("contract-flows");
    /** For connectors with {@link Dispatch#IO_THREADS} on {@link #scheduler()}. */
    static final FlowOps IO_THREADS = new FlowOps("contract-io-flows");

    private final ContinuationClassLoader loader =
            ContinuationClassLoader.builder().include("flowtest.mina").strict(true).build();
    private final FlowScheduler scheduler;
    private final LongAdder endedOnIoThreads = new LongAdder();

    private FlowOps(String name) {
        this.scheduler = FlowScheduler.builder().workers(1).name(name).build();
    }

    /** The scheduler running the operations. */
    FlowScheduler scheduler() {
        return scheduler;
    }

    /** Operations that ended on a MINA I/O processor thread (resumed there by {@link Dispatch#IO_THREADS}). */
    long endedOnIoThreads() {
        return endedOnIoThreads.sum();
    }

    /** Times a contract flow was resumed after suspending. */
    long resumed() {
        return scheduler.stats().resumed();
    }

    @Override
    public CompletionStage<Object> start(String op, Transport transport, Object... args) {
        Callable<?> task = loader.newInstance(Callable.class, "flowtest.mina.TransportOp", op, transport, args);
        @SuppressWarnings("unchecked")
        CompletionStage<Object> r = (CompletionStage<Object>) scheduler.submit(task).toCompletionStage();
        r.whenComplete((v, e) -> {
            Thread t = Thread.currentThread();
            if (t.getName().contains("NioProcessor") && !scheduler.isWorker(t)) {
                endedOnIoThreads.increment();
            }
        });
        return r;
    }
}
