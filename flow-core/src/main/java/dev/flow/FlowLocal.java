package dev.flow;

import dev.flow.internal.FlowState;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A value that follows a flow from worker to worker across suspensions: the replacement for
 * {@link ThreadLocal} in flow code. Outside a flow it behaves like a {@code ThreadLocal}.
 *
 * @param <T> the value type
 */
public final class FlowLocal<T> {

    private static final AtomicInteger NEXT_INDEX = new AtomicInteger();

    private final int index = NEXT_INDEX.getAndIncrement();
    private final Supplier<? extends T> initial;
    private final ThreadLocal<T> outside;

    private FlowLocal(Supplier<? extends T> initial) {
        this.initial = initial;
        this.outside = ThreadLocal.withInitial(initial);
    }

    /** Creates a flow-local whose initial value is {@code null}. */
    public static <T> FlowLocal<T> create() {
        return new FlowLocal<>(() -> null);
    }

    /** Creates a flow-local whose initial value comes from {@code initial}. */
    public static <T> FlowLocal<T> withInitial(Supplier<? extends T> initial) {
        return new FlowLocal<>(Objects.requireNonNull(initial, "initial"));
    }

    /** Returns this flow's value, computing the initial value on first use. */
    @SuppressWarnings("unchecked")
    public T get() {
        FlowState f = FlowState.current();
        if (f == null) {
            return outside.get();
        }
        Object v = f.local(index);
        if (v == null) {
            T init = initial.get();
            if (init != null) {
                f.local(index, init);
            }
            return init;
        }
        return (T) v;
    }

    /** Sets this flow's value. */
    public void set(T value) {
        FlowState f = FlowState.current();
        if (f == null) {
            outside.set(value);
        } else {
            f.local(index, value);
        }
    }

    /** Removes this flow's value. */
    public void remove() {
        FlowState f = FlowState.current();
        if (f == null) {
            outside.remove();
        } else {
            f.local(index, null);
        }
    }
}
