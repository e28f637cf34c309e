package dev.flow.samples.http.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** One parsed request head. Not thread-safe; used by one session. */
final class Request {
    final String method;
    final String target;
    final boolean http11;
    /** Header names in lower case, followed by their values: name0, value0, name1, value1... */
    private final List<String> fields = new ArrayList<>();
    byte[] body = new byte[0];

    Request(String method, String target, boolean http11) {
        this.method = method;
        this.target = target;
        this.http11 = http11;
    }

    void add(String name, String value) {
        fields.add(name.toLowerCase(Locale.ROOT));
        fields.add(value);
    }

    /** The values of header {@code name} (lower case), in order. */
    List<String> all(String name) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < fields.size(); i += 2) {
            if (fields.get(i).equals(name)) {
                values.add(fields.get(i + 1));
            }
        }
        return values;
    }

    /** The value of header {@code name} (lower case), or {@code null}; several are joined with ", ". */
    String get(String name) {
        List<String> values = all(name);
        return values.isEmpty() ? null : String.join(", ", values);
    }

    /** Whether a comma-separated header {@code name} holds {@code token}, ignoring case. */
    boolean hasToken(String name, String token) {
        String v = get(name);
        if (v != null) {
            for (String t : v.split(",")) {
                if (t.trim().equalsIgnoreCase(token)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether the connection stays open after the response: HTTP/1.1 unless "close", HTTP/1.0 only with "keep-alive". */
    boolean keepAlive() {
        return http11 ? !hasToken("connection", "close") : hasToken("connection", "keep-alive");
    }

    /** The path of the target, without the query. */
    String path() {
        int q = target.indexOf('?');
        return q < 0 ? target : target.substring(0, q);
    }

    /** The value of query parameter {@code name}, or {@code null}. */
    String query(String name) {
        int q = target.indexOf('?');
        if (q < 0) {
            return null;
        }
        for (String pair : target.substring(q + 1).split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).equals(name)) {
                return pair.substring(eq + 1);
            }
        }
        return null;
    }
}
