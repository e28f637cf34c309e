package dev.flow.bench.load;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code --key=value} options; {@code --flag} alone means {@code true}. Unknown keys are an error. */
final class Args {
    private final Map<String, String> values = new LinkedHashMap<>();
    private final Set<String> used = new HashSet<>();

    Args(String[] args) {
        for (String s : args) {
            if (!s.startsWith("--")) {
                throw new IllegalArgumentException("argument: " + s + " (expected: --key=value)");
            }
            int eq = s.indexOf('=');
            if (eq < 0) {
                values.put(s.substring(2), "true");
            } else {
                values.put(s.substring(2, eq), s.substring(eq + 1));
            }
        }
    }

    String get(String key, String dflt) {
        used.add(key);
        return values.getOrDefault(key, dflt);
    }

    boolean has(String key) {
        used.add(key);
        return values.containsKey(key);
    }

    int getInt(String key, int dflt) {
        String v = get(key, null);
        return v == null ? dflt : Integer.parseInt(v.replace("_", "").replace(",", ""));
    }

    double getDouble(String key, double dflt) {
        String v = get(key, null);
        return v == null ? dflt : Double.parseDouble(v);
    }

    boolean getBool(String key) {
        return Boolean.parseBoolean(get(key, "false"));
    }

    List<String> getList(String key, String dflt) {
        List<String> out = new ArrayList<>();
        for (String s : get(key, dflt).split(",")) {
            if (!s.isBlank()) {
                out.add(s.trim());
            }
        }
        return out;
    }

    List<Integer> getInts(String key, String dflt) {
        List<Integer> out = new ArrayList<>();
        for (String s : getList(key, dflt)) {
            out.add(Integer.parseInt(s.replace("_", "")));
        }
        return out;
    }

    void checkAllUsed() {
        for (String k : values.keySet()) {
            if (!used.contains(k)) {
                throw new IllegalArgumentException("option: --" + k + " (unknown; known: " + used + ")");
            }
        }
    }
}
