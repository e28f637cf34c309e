package dev.flow.loader.conformance;

import java.util.Arrays;

/**
 * What one run of a fixture produced, as text that can be compared across class loaders: the
 * returned value (class name and {@code toString}) or the thrown exception (type, message, cause
 * chain and suppressed exceptions).
 */
final class Outcome {

    private Outcome() {
    }

    static String ofValue(Object v) {
        if (v == null) {
            return "value null";
        }
        String text = v instanceof Object[] ? Arrays.deepToString((Object[]) v) : String.valueOf(v);
        return "value " + v.getClass().getName() + ": " + text;
    }

    static String ofThrown(Throwable t) {
        StringBuilder b = new StringBuilder("threw ");
        describe(t, b, 0);
        return b.toString();
    }

    private static void describe(Throwable t, StringBuilder b, int depth) {
        b.append(t.getClass().getName()).append(": ").append(t.getMessage());
        for (Throwable s : t.getSuppressed()) {
            b.append(" [suppressed ");
            describe(s, b, depth + 1);
            b.append(']');
        }
        Throwable cause = t.getCause();
        if (cause != null && cause != t && depth < 16) {
            b.append(" <- caused by ");
            describe(cause, b, depth + 1);
        }
    }
}
