package dev.flow;

import dev.flow.internal.FlowState;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A value that follows a flow from worker to worker across suspensions: the replacement for
 * {@link ThreadLocal} in flow code. Outside a flow it behaves like a {@code ThreadLocal}.
 *
 * <p>Each flow-local takes a slot in the flows that set it. The slot index of a flow-local that has
 * been garbage-collected is reused by the next one created, so the slots in use stay bounded by the
 * number of live flow-locals; a flow keeps the flow-locals it holds values of reachable, so a reused
 * slot never shows another flow-local's value. Thread-safe.
 *
 * @param <T> the value type
 */
public final class FlowLocal<T> {

    private static final ReferenceQueue<FlowLocal<?>> COLLECTED = new ReferenceQueue<>();
    private static final Set<Slot> SLOTS = ConcurrentHashMap.newKeySet();
    private static final ArrayDeque<Integer> FREE = new ArrayDeque<>();
    private static int nextIndex;

    private final int index;
    private final Supplier<? extends T> initial;
    private final ThreadLocal<T> outside;

    private FlowLocal(Supplier<? extends T> initial) {
        this.initial = initial;
        this.outside = ThreadLocal.withInitial(initial);
        this.index = allocate();
        SLOTS.add(new Slot(this, index));
    }

    /** The index of a collected flow-local, kept until the index is reused. */
    private static final class Slot extends WeakReference<FlowLocal<?>> {
        final int index;

        Slot(FlowLocal<?> local, int index) {
            super(local, COLLECTED);
            this.index = index;
        }
    }

    private static int allocate() {
        synchronized (FREE) {
            for (Slot s; (s = (Slot) COLLECTED.poll()) != null; ) {
                SLOTS.remove(s);
                FREE.push(s.index);
            }
            Integer free = FREE.poll();
            return free != null ? free : nextIndex++;
        }
    }

    /** The slot index; for tests. */
    int index() {
        return index;
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
        Object v = f.local(index, this);
        if (v == null) {
            T init = initial.get();
            if (init != null) {
                f.local(index, this, init);
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
            f.local(index, this, value);
        }
    }

    /** Removes this flow's value. */
    public void remove() {
        FlowState f = FlowState.current();
        if (f == null) {
            outside.remove();
        } else {
            f.local(index, this, null);
        }
    }
}
