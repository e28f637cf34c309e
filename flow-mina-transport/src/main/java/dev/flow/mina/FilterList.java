package dev.flow.mina;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.net.ssl.SSLContext;
import org.apache.mina.core.filterchain.DefaultIoFilterChainBuilder;
import org.apache.mina.core.filterchain.IoFilter;
import org.apache.mina.filter.ssl.SslFilter;

/**
 * The MINA filters a server or connector builder collects, in order, TLS first. Not thread-safe; the
 * builders copy it.
 */
final class FilterList {

    static final String TLS = "ssl";

    private final Map<String, IoFilter> filters = new LinkedHashMap<>();

    FilterList() {
    }

    FilterList(FilterList other) {
        filters.putAll(other.filters);
    }

    /** Puts MINA's {@link SslFilter} over {@code context} first, replacing an earlier one. */
    void tls(SSLContext context) {
        Objects.requireNonNull(context, "context");
        Map<String, IoFilter> rest = new LinkedHashMap<>(filters);
        rest.remove(TLS);
        filters.clear();
        filters.put(TLS, new SslFilter(context));
        filters.putAll(rest);
    }

    /** Appends {@code filter}; names are unique and must not be one of {@code reserved}. */
    void add(String name, IoFilter filter, String... reserved) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(filter, "filter");
        if (filters.containsKey(name) || List.of(reserved).contains(name)) {
            throw new IllegalArgumentException("filter name: " + name + " (expected: a name not used yet)");
        }
        filters.put(name, filter);
    }

    /** Appends the filters, in order, to {@code chain}. */
    void applyTo(DefaultIoFilterChainBuilder chain) {
        filters.forEach(chain::addLast);
    }
}
