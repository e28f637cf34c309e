package dev.flow.bench.soak;

import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.SuspendPolicy;
import dev.flow.Transport;
import dev.flow.TransportConfig;
import dev.flow.bench.soak.handlers.SoakHandler;
import dev.flow.loader.ContinuationClassLoader;
import dev.flow.mina.Dispatch;
import dev.flow.mina.FlowServer;
import dev.flow.mina.InputBudget;
import dev.flow.mina.SessionStats;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * One life of the server under test: a fresh {@code ContinuationClassLoader}, scheduler and {@link
 * FlowServer} (continuation mode), or a thread-per-session server (sync mode). Created, reported on and
 * closed by the soak's control thread; the gauges may be read from any thread.
 */
final class Generation {
    static final String HANDLERS = "dev.flow.bench.soak.handlers";

    final int number;
    final FlowScheduler scheduler;
    final FlowServer server;
    final InetSocketAddress address;
    /**
     * Whether the handlers may pin (loaded lenient): a worker about to block in a pinned wait hands its
     * place to a spare, so more worker threads than workers may be alive.
     */
    private final boolean mayPin;

    private Generation(int number, FlowScheduler scheduler, FlowServer server, boolean mayPin) {
        this.number = number;
        this.scheduler = scheduler;
        this.server = server;
        this.address = (InetSocketAddress) server.localAddress();
        this.mayPin = mayPin;
    }

    /** Starts generation {@code number} on a free port of 127.0.0.1. */
    static Generation start(int number, SoakOptions o, TransportConfig config,
            BiConsumer<? super Transport, ? super Throwable> onFailure) throws IOException {
        FlowServer.Builder b = FlowServer.builder()
                .config(config)
                .maxSessions(o.maxSessions)
                .inputBudget(new InputBudget(o.inputBudgetBytes))
                .clientSpeaksFirst(o.clientSpeaksFirst)
                .onFailure(onFailure);
        FlowScheduler scheduler = null;
        if (o.sync) {
            b.threadPerSession().handler(SoakHandler.class);
        } else {
            ContinuationClassLoader loader = ContinuationClassLoader.builder().include(HANDLERS).strict(!o.lenient).build();
            scheduler = FlowScheduler.builder()
                    .workers(o.workers)
                    .policy(SuspendPolicy.immediately())
                    .name("soak-" + number)
                    .build();
            b.scheduler(scheduler).handler(loader, HANDLERS + ".SoakHandler")
                    .dispatch(o.dispatch);
        }
        try {
            return new Generation(number, scheduler, b.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)),
                    o.lenient);
        } catch (IOException | RuntimeException e) {
            if (scheduler != null) {
                scheduler.close();
            }
            throw e;
        }
    }

    /** Live threads that are workers of this generation's scheduler; 0 in sync mode. */
    int workersAlive() {
        if (scheduler == null) {
            return 0;
        }
        int alive = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && scheduler.isWorker(t)) {
                alive++;
            }
        }
        return alive;
    }

    /**
     * Whether {@code alive} worker threads are right for a running generation: as many as its workers, or,
     * if its handlers may pin, at least as many (spares standing in for workers blocked in pinned waits).
     */
    boolean workersRight(int alive) {
        return alive == workers() || mayPin && alive > workers();
    }

    /** Workers the scheduler says it has; 0 in sync mode. */
    int workers() {
        return scheduler == null ? 0 : scheduler.workers();
    }

    /**
     * Closes the server gracefully ({@code close(grace)}: sessions between requests end at once, requests
     * in flight may finish), then the scheduler, and waits up to {@code wait} for the workers to stop.
     * Returns what was lost: every problem as a sentence, empty if none.
     */
    List<String> closeAndCheck(Duration grace, Duration wait) throws InterruptedException {
        List<String> lost = new ArrayList<>();
        int alive = workersAlive();
        if (!workersRight(alive)) {
            lost.add("generation " + number + ": " + alive + " of " + workers() + " workers alive before close");
        }
        server.close(grace);
        if (scheduler != null) {
            scheduler.close();
            if (!scheduler.awaitTermination(wait)) {
                lost.add("generation " + number + ": workers did not stop within " + wait.toSeconds() + " s");
            }
            FlowStats f = scheduler.stats();
            long flowsLost = f.started() - f.completed() - f.failed();
            if (flowsLost != 0 || !f.isIdle()) {
                lost.add("generation " + number + ": " + flowsLost + " flows lost after close: " + f);
            }
            if (workersAlive() != 0) {
                lost.add("generation " + number + ": " + workersAlive() + " workers still alive after close");
            }
        }
        SessionStats s = server.stats();
        long sessionsLost = sessionsLost(s);
        if (sessionsLost != 0 || s.running() != 0 || s.queued() != 0 || server.openSessions() != 0) {
            lost.add("generation " + number + ": " + sessionsLost + " sessions lost after close, open="
                    + server.openSessions() + ": " + s);
        }
        return lost;
    }

    /** Accepted sessions not (yet) counted in any outcome. */
    static long sessionsLost(SessionStats s) {
        return s.accepted() - s.completed() - s.closedByPeer() - s.timedOut() - s.failed() - s.stopped()
                - s.rejected() - s.running() - s.queued();
    }
}
