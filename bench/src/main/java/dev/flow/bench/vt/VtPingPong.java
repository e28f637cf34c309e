package dev.flow.bench.vt;

import dev.flow.bench.support.Reply;
import java.util.concurrent.locks.LockSupport;

/**
 * The responder of the virtual-thread ping-pong: at stack depth {@code depth} (1, 3 or 10 frames of
 * this class, {@code run()} included) parks until pinged, answers through {@code reply}; until
 * {@link Reply#requestStop()}. The pinging side calls {@link #ping()}.
 */
public final class VtPingPong implements Runnable {

    private final Reply reply;
    private final int depth;
    private volatile boolean pinged;
    private volatile Thread self;
    /** Rounds answered. */
    public volatile long rounds;

    public VtPingPong(Reply reply, int depth) {
        if (depth != 1 && depth != 3 && depth != 10) {
            throw new IllegalArgumentException("depth: " + depth + " (expected: 1, 3 or 10)");
        }
        this.reply = reply;
        this.depth = depth;
    }

    /** Wakes the responder; call only after its previous reply arrived. */
    public void ping() {
        pinged = true;
        LockSupport.unpark(self);
    }

    /**
     * Whether the responder is parked: its virtual thread is unmounted, waiting for {@link #ping()}.
     * The pinging side waits for this before pinging, so that every round is a real park/unpark.
     */
    public boolean isParked() {
        return self.getState() == Thread.State.WAITING;
    }

    /** Must be called before the thread starts. */
    public void bind(Thread t) {
        self = t;
    }

    @Override
    public void run() {
        long n = 0;
        while (!reply.stopRequested()) {
            switch (depth) {
                case 1:
                    while (!pinged) {
                        LockSupport.park(this);
                    }
                    pinged = false;
                    reply.signal();
                    n++;
                    break;
                case 3:
                    n += f2(0) - 1;
                    break;
                default:
                    n += f9(0) - 8;
                    break;
            }
        }
        rounds = n;
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
        while (!pinged) {
            LockSupport.park(this);
        }
        pinged = false;
        reply.signal();
        return x + 1;
    }
}
