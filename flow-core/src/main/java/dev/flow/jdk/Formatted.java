package dev.flow.jdk;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Formatter;
import java.util.List;
import java.util.Locale;

/**
 * What a {@link Formatter} appends for one {@code format} call, recorded so that a print stream or
 * writer can make the same {@code append} calls on itself afterwards: the JDK's {@code printf} lets
 * the {@code Formatter} append to the stream from the JDK's own frames, where a suspending write would
 * pin. If formatting fails part-way, the pieces appended before the failure are replayed and the
 * failure is rethrown, as the JDK's stream would have written them already. The targets' {@code append}
 * never throws {@code IOException} (print streams and writers record errors instead). Not thread-safe;
 * one per call.
 */
final class Formatted implements Appendable {

    private final List<Object[]> calls = new ArrayList<>();

    private Formatted() {
    }

    /** Formats as {@code new Formatter(target, l).format(l, format, args)} would, appending to {@code target}. */
    static void format(Appendable target, Locale l, String format, Object... args) {
        Formatted f = new Formatted();
        RuntimeException failure = null;
        try {
            new Formatter(f, l).format(l, format, args);
        } catch (RuntimeException e) {
            failure = e;
        }
        try {
            for (Object[] c : f.calls) {
                if (c.length == 1) {
                    target.append((CharSequence) c[0]);
                } else if (c.length == 3) {
                    target.append((CharSequence) c[0], (Integer) c[1], (Integer) c[2]);
                } else {
                    target.append((Character) c[1]);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("a print stream's append threw", e);
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public Appendable append(CharSequence csq) {
        calls.add(new Object[] {csq == null ? null : csq.toString()});
        return this;
    }

    @Override
    public Appendable append(CharSequence csq, int start, int end) {
        calls.add(new Object[] {csq == null ? null : csq.toString(), start, end});
        return this;
    }

    @Override
    public Appendable append(char c) {
        calls.add(new Object[] {null, c});
        return this;
    }
}
