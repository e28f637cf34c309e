package dev.flow.mina;

import dev.flow.FlowScheduler;
import dev.flow.Transport;
import dev.flow.TransportContractTest;
import dev.flow.loader.ContinuationClassLoader;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;

/**
 * Continuation mode for the transport contract: each operation runs as a flow of {@code
 * flowtest.mina.TransportOp}, loaded through a strict {@link ContinuationClassLoader}, on one shared
 * worker, so a wait that could not suspend would fail the test.
 */
final class FlowOps implements TransportContractTest.FlowRunner {

    static final FlowOps INSTANCE = new FlowOps();

    private final ContinuationClassLoader loader =
            ContinuationClassLoader.builder().include("flowtest.mina").strict(true).build();
    private final FlowScheduler scheduler = FlowScheduler.builder().workers(1).name("contract-flows").build();

    private FlowOps() {
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
        return r;
    }
}
