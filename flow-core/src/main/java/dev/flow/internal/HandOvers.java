package dev.flow.internal;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.TimeUnit;

/**
 * Holders that hand a value the replacement of a rewritten call returned back to loaded code through
 * the original call: the class loader follows the replacement ({@code PrimitiveAwaits.poll(q, timeout,
 * unit)}, say) with {@link #of} and then the original instruction ({@code BlockingQueue.poll(long,
 * TimeUnit)}) on the holder, with a zero timeout. The value thus comes from an instruction with the
 * original's owner, name and descriptor, and the JVM's helpful {@code NullPointerException} message
 * about it ({@code because the return value of "java.util.concurrent.BlockingQueue.poll(long,
 * java.util.concurrent.TimeUnit)" is null}) is the one of the code loaded normally.
 *
 * <p>Each holder is of the call's owner type (a subclass overriding the timed form to return the value,
 * whatever the interrupt flag) and holds nothing else; a null value is handed over by a shared holder.
 * Stateless and thread-safe.
 */
public final class HandOvers {

    /** A {@code LinkedBlockingDeque}: for {@code BlockingQueue}, {@code BlockingDeque} and {@code LinkedBlockingDeque} owners. */
    public static final int DEQUE = 0;
    /** A {@code LinkedBlockingQueue}. */
    public static final int LINKED_QUEUE = 1;
    /** An {@code ArrayBlockingQueue}. */
    public static final int ARRAY_QUEUE = 2;
    /** A {@code LinkedTransferQueue}: for {@code TransferQueue} and {@code LinkedTransferQueue} owners. */
    public static final int TRANSFER_QUEUE = 3;
    /** An {@code ExecutorCompletionService}: for {@code CompletionService} owners too. */
    public static final int COMPLETION_SERVICE = 4;
    /** A completed {@code CompletableFuture}: for {@code Future} owners too. */
    public static final int FUTURE = 5;

    private static final Object[] EMPTY = {new HeldDeque(null), new HeldQueue(null), new HeldArray(null),
            new HeldTransfer(null), service(null), CompletableFuture.completedFuture(null)};

    private HandOvers() {
    }

    /**
     * A holder of kind {@code kind} whose zero-timeout form of the original call returns {@code value},
     * whatever the thread's interrupt flag (the replacement already made the interruptible wait).
     */
    public static Object of(Object value, int kind) {
        if (value == null) {
            return EMPTY[kind];
        }
        switch (kind) {
            case DEQUE:
                return new HeldDeque(value);
            case LINKED_QUEUE:
                return new HeldQueue(value);
            case ARRAY_QUEUE:
                return new HeldArray(value);
            case TRANSFER_QUEUE:
                return new HeldTransfer(value);
            case COMPLETION_SERVICE:
                return service(value);
            case FUTURE:
                return CompletableFuture.completedFuture(value);
            default:
                throw new IllegalArgumentException("kind: " + kind + " (expected: 0.." + FUTURE + ")");
        }
    }

    @SuppressWarnings("unchecked")
    private static ExecutorCompletionService<Object> service(Object future) {
        return new ExecutorCompletionService<>(Runnable::run, (BlockingQueue<Future<Object>>) (BlockingQueue<?>) new HeldQueue(future));
    }

    /** Holds a value for {@code poll}, {@code pollFirst} and {@code pollLast} with a timeout. */
    private static final class HeldDeque extends LinkedBlockingDeque<Object> {
        private static final long serialVersionUID = 1L;
        private final transient Object value;

        HeldDeque(Object value) {
            super(1);
            this.value = value;
        }

        @Override
        public Object poll(long timeout, TimeUnit unit) {
            return value;
        }

        @Override
        public Object pollFirst(long timeout, TimeUnit unit) {
            return value;
        }

        @Override
        public Object pollLast(long timeout, TimeUnit unit) {
            return value;
        }
    }

    /** Holds a value for {@code poll} with a timeout. */
    private static final class HeldQueue extends LinkedBlockingQueue<Object> {
        private static final long serialVersionUID = 1L;
        private final transient Object value;

        HeldQueue(Object value) {
            super(1);
            this.value = value;
        }

        @Override
        public Object poll(long timeout, TimeUnit unit) {
            return value;
        }
    }

    /** Holds a value for {@code poll} with a timeout. */
    private static final class HeldArray extends ArrayBlockingQueue<Object> {
        private static final long serialVersionUID = 1L;
        private final transient Object value;

        HeldArray(Object value) {
            super(1);
            this.value = value;
        }

        @Override
        public Object poll(long timeout, TimeUnit unit) {
            return value;
        }
    }

    /** Holds a value for {@code poll} with a timeout. */
    private static final class HeldTransfer extends LinkedTransferQueue<Object> {
        private static final long serialVersionUID = 1L;
        private final transient Object value;

        HeldTransfer(Object value) {
            this.value = value;
        }

        @Override
        public Object poll(long timeout, TimeUnit unit) {
            return value;
        }
    }
}
