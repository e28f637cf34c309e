package flowtest.conformance.primitives;

import flowtest.support.Spawn;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;

/**
 * Hand-offs through {@code BlockingDeque}s between this flow and a sibling flow (on one worker both
 * share it): the sibling waits in {@code takeFirst}/{@code takeLast} and answers with {@code
 * putFirst}/{@code putLast}; this flow offers with a timeout and waits in {@code pollFirst}/{@code
 * pollLast} with a timeout. A final 0 ends the sibling however the exchange went.
 */
public final class DequeWithSiblingFlow implements Callable<Object> {

    /** Takes from alternate ends and answers ten times the value at alternate ends, until a 0. */
    static final class Echo implements Callable<Object> {
        private final BlockingDeque<Integer> in;
        private final BlockingDeque<Integer> out;

        Echo(BlockingDeque<Integer> in, BlockingDeque<Integer> out) {
            this.in = in;
            this.out = out;
        }

        @Override
        public Object call() throws Exception {
            for (int i = 1;; i++) {
                int v = i % 2 == 1 ? in.takeFirst() : in.takeLast();
                if (v == 0) {
                    return "echoed " + (i - 1);
                }
                if (i % 2 == 1) {
                    out.putLast(v * 10);
                } else {
                    out.putFirst(v * 10);
                }
            }
        }
    }

    @Override
    public Object call() throws Exception {
        BlockingDeque<Integer> toSibling = new LinkedBlockingDeque<>();
        BlockingDeque<Integer> back = new LinkedBlockingDeque<>(1);
        java.util.concurrent.Future<Object> echo = Spawn.start(new Echo(toSibling, back));
        List<Object> got = new ArrayList<>();
        try {
            for (int i = 1; i <= 4; i++) {
                boolean offered = i % 2 == 1 ? toSibling.offerFirst(i, 3, TimeUnit.SECONDS)
                        : toSibling.offerLast(i, 3, TimeUnit.SECONDS);
                got.add(offered ? (i % 2 == 1 ? back.pollFirst(3, TimeUnit.SECONDS) : back.pollLast(3, TimeUnit.SECONDS))
                        : "not offered");
            }
        } finally {
            toSibling.addLast(0);
        }
        return got + " " + echo.get(3, TimeUnit.SECONDS);
    }
}
