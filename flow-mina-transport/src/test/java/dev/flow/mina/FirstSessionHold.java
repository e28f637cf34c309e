package dev.flow.mina;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.mina.core.filterchain.IoFilterAdapter;
import org.apache.mina.core.session.IoSession;

/**
 * A MINA filter that holds the I/O thread registering the first session created until {@link #release()},
 * so that a test can fill the acceptor and the I/O thread's queues behind it; that session fails if it is
 * not released within the timeout. Later sessions pass at once. Thread-safe.
 */
final class FirstSessionHold extends IoFilterAdapter {

    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicBoolean first = new AtomicBoolean(true);
    private final Duration timeout;

    FirstSessionHold(Duration timeout) {
        this.timeout = timeout;
    }

    /** Lets the held registration, and every later one, go on. */
    void release() {
        release.countDown();
    }

    @Override
    public void sessionCreated(NextFilter next, IoSession session) throws Exception {
        if (first.getAndSet(false) && !release.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("not released within " + timeout.toSeconds() + " s");
        }
        next.sessionCreated(session);
    }
}
