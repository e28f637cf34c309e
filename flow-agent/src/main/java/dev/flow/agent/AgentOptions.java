package dev.flow.agent;

import dev.flow.loader.internal.ClassCache;
import dev.flow.loader.internal.Scope;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The agent's argument, {@code include=com.example.proto[,more][;exclude=com.example.proto.gen][;strict][;anyloader][;cache=<dir>|off]}:
 * options separated by {@code ;}, packages by {@code ,}. Immutable.
 */
final class AgentOptions {

    static final String SYNTAX = "include=<package>[,<package>...][;exclude=<package>[,...]][;strict][;anyloader][;cache=<dir>|off]";

    final List<String> includes;
    final List<String> excludes;
    final boolean strict;
    /**
     * Whether the included classes may be defined by class loaders other than the system one only (a
     * Spring Boot jar's, an application server's): no start-up check of the class path, an include that
     * matched no class in any loader is reported at exit instead.
     */
    final boolean anyLoader;
    /**
     * The class cache's directory as the {@code cache} option gives it ({@code off}, {@code default} or a
     * directory; {@link ClassCache#directory}), or {@code null} if not given: then {@code
     * -Ddev.flow.loader.cache} decides, as for a loader whose builder does not choose.
     */
    final String cache;

    private AgentOptions(List<String> includes, List<String> excludes, boolean strict, boolean anyLoader, String cache) {
        this.includes = List.copyOf(includes);
        this.excludes = List.copyOf(excludes);
        this.strict = strict;
        this.anyLoader = anyLoader;
        this.cache = cache;
    }

    /** The class cache's directory: the option's, else the system property's; {@code null} if off. */
    Path cacheDirectory() {
        return cache == null ? ClassCache.propertyDirectory() : ClassCache.directory(cache);
    }

    /**
     * Parses the agent's argument.
     *
     * @throws IllegalArgumentException naming the argument, or the part of it, and what was expected
     */
    static AgentOptions parse(String args) {
        if (args == null || args.isBlank()) {
            throw new IllegalArgumentException("flow-agent: no argument (expected: " + SYNTAX + ")");
        }
        List<String> includes = new ArrayList<>();
        List<String> excludes = new ArrayList<>();
        boolean strict = false;
        boolean anyLoader = false;
        String cache = null;
        for (String option : args.split(";", -1)) {
            String o = option.trim();
            int eq = o.indexOf('=');
            String key = eq < 0 ? o : o.substring(0, eq).trim();
            String value = eq < 0 ? null : o.substring(eq + 1);
            switch (key) {
                case "include":
                    includes.addAll(packages("include", value, args));
                    break;
                case "exclude":
                    excludes.addAll(packages("exclude", value, args));
                    break;
                case "cache":
                    if (value == null || value.isBlank() || cache != null) {
                        throw new IllegalArgumentException("flow-agent: option \"" + o + "\" in \"" + args
                                + "\" (expected: cache=<directory> or cache=off, once)");
                    }
                    cache = value.trim();
                    break;
                case "strict":
                case "anyloader":
                    if (value != null) {
                        throw new IllegalArgumentException("flow-agent: option \"" + o + "\" in \"" + args
                                + "\" (expected: " + key + ", without a value)");
                    }
                    strict |= key.equals("strict");
                    anyLoader |= key.equals("anyloader");
                    break;
                default:
                    throw new IllegalArgumentException("flow-agent: option \"" + o + "\" in \"" + args
                            + "\" (expected: include=<packages>, exclude=<packages>, strict, anyloader, cache=<directory> or cache=off)");
            }
        }
        if (includes.isEmpty()) {
            throw new IllegalArgumentException("flow-agent: \"" + args + "\" includes no package (expected: " + SYNTAX + ")");
        }
        return new AgentOptions(includes, excludes, strict, anyLoader, cache);
    }

    private static List<String> packages(String key, String value, String args) {
        List<String> out = new ArrayList<>();
        if (value != null) {
            for (String p : value.split(",", -1)) {
                if (!p.isBlank()) {
                    try {
                        out.add(Scope.checkPackage(key, p.trim()));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("flow-agent: " + e.getMessage() + " in \"" + args + "\"", e);
                    }
                }
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("flow-agent: \"" + key + "=" + (value == null ? "" : value) + "\" in \"" + args
                    + "\" names no package (expected: " + key + "=com.example.proto[,more.packages])");
        }
        return out;
    }

    /** Whether {@code internalName} is in an included package and not an excluded one. */
    boolean covers(String internalName) {
        String dotted = internalName.replace('/', '.');
        for (String e : excludes) {
            if (dotted.startsWith(e + ".")) {
                return false;
            }
        }
        for (String i : includes) {
            if (dotted.startsWith(i + ".")) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return "include=" + String.join(",", includes) + (excludes.isEmpty() ? "" : ";exclude=" + String.join(",", excludes))
                + (strict ? ";strict" : "") + (anyLoader ? ";anyloader" : "") + (cache == null ? "" : ";cache=" + cache);
    }
}
