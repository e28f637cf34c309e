package dev.flow.bench.flows;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * Loops over a buffer that call a suspendable method now and then, of the shape of a buffered reader's: {@code
 * call()} sums a 4,096-byte buffer {@code rounds} times, and every {@code every}-th byte (or at each buffer's end,
 * {@code every} 0) calls {@code fill()}, which joins an already-completed future (a suspension point that does not
 * suspend). Loaded through the {@code ContinuationClassLoader}, {@code call()}'s loop holds a suspendable call:
 * the engine resumes into its middle, which {@code ReducibleLoops} turns into an entry through the loop's header.
 */
public final class ScanLoop implements Callable<Object> {

    private final CompletableFuture<Integer> done;
    private final byte[] buffer = new byte[4096];
    private final int every;
    private final int rounds;

    public ScanLoop(CompletableFuture<Integer> done, int every, int rounds) {
        if (!done.isDone()) {
            throw new IllegalArgumentException("done: not completed (expected: a completed future)");
        }
        if (every < 0 || every > buffer.length) {
            throw new IllegalArgumentException("every: " + every + " (expected: 0 to " + buffer.length + ")");
        }
        this.done = done;
        this.every = every;
        this.rounds = rounds;
        for (int i = 0; i < buffer.length; i++) {
            buffer[i] = (byte) (i * 31 + 7);
        }
    }

    @Override
    public Object call() {
        long sum = 0;
        int step = every == 0 ? buffer.length : every;
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < buffer.length; i++) {
                sum += buffer[i];
                if ((i + 1) % step == 0) {
                    sum += fill();
                }
            }
        }
        return sum;
    }

    private int fill() {
        return done.join();
    }
}
