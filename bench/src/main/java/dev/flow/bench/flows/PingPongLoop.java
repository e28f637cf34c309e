package dev.flow.bench.flows;

import dev.flow.Flow;
import dev.flow.bench.support.Baton;
import dev.flow.bench.support.Reply;
import java.util.concurrent.Callable;

/**
 * The responder of the ping-pong benchmark: at stack depth {@code depth} (1, 3 or 10 frames of this
 * class, {@code call()} included) awaits {@code ping}, re-arms it, answers through {@code reply};
 * until {@link Reply#requestStop()}.
 */
public final class PingPongLoop implements Callable<Object> {

    private final Baton ping;
    private final Reply reply;
    private final int depth;

    public PingPongLoop(Baton ping, Reply reply, int depth) {
        if (depth != 1 && depth != 3 && depth != 10) {
            throw new IllegalArgumentException("depth: " + depth + " (expected: 1, 3 or 10)");
        }
        this.ping = ping;
        this.reply = reply;
        this.depth = depth;
    }

    @Override
    public Object call() {
        long rounds = 0;
        while (!reply.stopRequested()) {
            switch (depth) {
                case 1:
                    Flow.await(ping);
                    ping.reset();
                    reply.signal();
                    rounds++;
                    break;
                case 3:
                    rounds += f2(0) - 1;
                    break;
                default:
                    rounds += f9(0) - 8;
                    break;
            }
        }
        return rounds;
    }

    private int f9(int x) { return f8(x) + 1; }
    private int f8(int x) { return f7(x) + 1; }
    private int f7(int x) { return f6(x) + 1; }
    private int f6(int x) { return f5(x) + 1; }
    private int f5(int x) { return f4(x) + 1; }
    private int f4(int x) { return f3(x) + 1; }
    private int f3(int x) { return f2(x) + 1; }
    private int f2(int x) { return f1(x) + 1; }

    private int f1(int x) {
        Flow.await(ping);
        ping.reset();
        reply.signal();
        return x + 1;
    }
}
