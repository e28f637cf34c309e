package dev.flow.loader.internal;

import dev.flow.internal.Pins;
import dev.flow.spi.SuspensionPoint;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.slf4j.Logger;

/**
 * A persistent cache of the class files a scope defines, final (instrumented, or left as they were), so
 * that a later loader over the same class path defines a class without analysing or instrumenting it.
 *
 * <p>An entry is used only under the key it was written with: the content of every class file the
 * parent chain can read ({@link ClassPathKey}), Flow's own and its engine's jars, the JDK, the included
 * and excluded packages, the added suspension points and the mode. A class's instrumentation depends on
 * the analysis of the classes it calls, which may come from any jar of the class path; any change to
 * any of them gives a new key and so a new directory. An entry carries the SHA-256 of its contents and
 * is ignored (and written again) when it does not match, is truncated, or belongs to another key or
 * class.
 *
 * <p>The pin sites a class file names are ids registered in the process that wrote it; the entry keeps
 * what each site was registered with (and whether its warning was logged when the class was
 * prepared), and a hit registers them again, logs the same warnings, and writes the new ids into the
 * class file. To make that a copy and a few stores rather than a pass of ASM, a class that names
 * sites is kept (and, with a cache, defined on a miss too) with each site's id in a constant-pool
 * entry of its own ({@link SiteIds#patchable}), whose offset the entry records. Refusals are not
 * cached: a refused class is analysed again, and refused again. One more entry per key lists the classes
 * the scope defines ({@link #defined()}), so that a loader can serve its hits without analysing the scope.
 *
 * <p>Entries are written to a temporary file and moved into place atomically, so that readers, and other
 * processes writing the same entry, never see a partial one. Each key has a directory; building a loader
 * marks its own as used and removes the directories beyond the {@value #KEPT_KEYS} most recently used
 * and those unused for {@link #UNUSED} (a reader of a removed entry misses). Failures to read or write
 * the cache are logged at debug level and never fail a load. Thread-safe.
 */
public final class ClassCache {

    private static final Logger LOG = dev.flow.internal.Slf4j.logger(ClassCache.class);
    private static final int MAGIC = 0x464C4343;
    /** The entry layout; part of the key, so that another layout never reads this one. */
    private static final int FORMAT = 2;
    private static final int KEPT_KEYS = 32;
    private static final Duration UNUSED = Duration.ofDays(30);
    private static final int DIGEST = 32;
    /** The name of the entry {@link #recordDefined} writes: no class has it. */
    private static final String DEFINED = "/defined";

    /** The system property that names the cache directory of loaders whose builder does not. */
    public static final String CACHE_PROPERTY = "dev.flow.loader.cache";
    /** The warnings {@link #open} logged, each once per process. */
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();
    private static final List<String> WARNINGS = new CopyOnWriteArrayList<>();

    private final Path dir;
    private final byte[] key;
    /** The class files as compiled, for {@link HugeMethods}. */
    private final ClassLoader parent;

    private ClassCache(Path dir, byte[] key, ClassLoader parent) {
        this.dir = dir;
        this.key = key;
        this.parent = parent;
    }

    /**
     * The cache in {@code root} for a scope over {@code parent}, or {@code null} if the parent chain's
     * class files cannot all be identified by content (a loader that is neither the application class
     * loader nor a {@code URLClassLoader} over files and directories), or if {@code root} cannot be
     * created or written, belongs to another user or is writable by others than its owner ({@link
     * CacheRoot}): then one warning per directory and reason is logged in this process.
     */
    public static ClassCache open(Path root, ClassLoader parent, List<String> includes, List<String> excludes,
                                  List<SuspensionPoint> points, boolean strict) {
        return open(root, parent, includes, excludes, points, strict, "loader");
    }

    /**
     * {@link #open(Path, ClassLoader, List, List, List, boolean)} for the class files of a route other than
     * the loader's ({@code route} is part of the key: the agent defines {@link Scope#markedBytes}).
     */
    public static ClassCache open(Path root, ClassLoader parent, List<String> includes, List<String> excludes,
                                  List<SuspensionPoint> points, boolean strict, String route) {
        String refused = CacheRoot.refusal(root);
        if (refused != null) {
            String warning = "class cache off: " + root + " is not used because " + refused
                    + "; classes are instrumented as without a cache (choose another directory with -D"
                    + CACHE_PROPERTY + "=<dir>, or turn the cache off with -D" + CACHE_PROPERTY + "=off)";
            if (WARNED.add(warning)) {
                WARNINGS.add(warning);
                LOG.warn(warning);
            }
            return null;
        }
        MessageDigest md = ClassPathKey.sha256();
        md.update(("flow-class-cache/" + FORMAT + "\n").getBytes(StandardCharsets.UTF_8));
        text(md, "route=" + route);
        text(md, "strict=" + strict);
        text(md, "include=" + includes);
        text(md, "exclude=" + excludes);
        for (SuspensionPoint p : points) {
            text(md, "point=" + p.owner() + "." + p.name() + p.descriptor() + " " + p.kind() + " " + p.replacementOwner() + "."
                    + p.replacementName() + p.replacementDescriptor());
        }
        if (!ClassPathKey.update(md, parent)) {
            LOG.debug("class cache off: the class path of {} cannot be identified by content", parent);
            return null;
        }
        byte[] key = md.digest();
        Path dir = root.resolve(hex(key, 16));
        try {
            Files.createDirectories(dir, CacheRoot.ownerOnly());
            Files.setLastModifiedTime(dir, FileTime.from(Instant.now()));
            cleanUp(root, dir);
        } catch (IOException | UncheckedIOException e) {
            LOG.debug("class cache {} cannot be used: {}", dir, e.toString());
            return null;
        }
        return new ClassCache(dir, key, parent);
    }

    /**
     * The cache directory {@code -D}{@value #CACHE_PROPERTY} names: a directory, {@code default} (or not
     * set) for {@link #defaultDirectory()}, or {@code off} (also {@code false}, {@code none}) for {@code null}.
     */
    public static Path propertyDirectory() {
        return directory(System.getProperty(CACHE_PROPERTY, ""));
    }

    /**
     * The cache directory a setting names: a directory, {@code default} (or empty) for {@link
     * #defaultDirectory()}, or {@code off} (also {@code false}, {@code none}) for {@code null}.
     */
    public static Path directory(String setting) {
        String p = setting.trim();
        if (p.equals("off") || p.equals("false") || p.equals("none")) {
            return null;
        }
        return p.isEmpty() || p.equals("default") || p.equals("true") || p.equals("on") ? defaultDirectory() : Paths.get(p);
    }

    /** {@code $XDG_CACHE_HOME/flow/classes}, or {@code ~/.cache/flow/classes} if that variable is not set. */
    public static Path defaultDirectory() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isEmpty() ? Paths.get(xdg) : Paths.get(System.getProperty("user.home"), ".cache");
        return base.resolve("flow").resolve("classes");
    }

    private static void text(MessageDigest md, String s) {
        md.update(s.getBytes(StandardCharsets.UTF_8));
        md.update((byte) '\n');
    }

    /** Removes the key directories beyond the most recently used ones and those unused for long. */
    private static void cleanUp(Path root, Path own) throws IOException {
        List<Path> dirs = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(root, Files::isDirectory)) {
            s.forEach(dirs::add);
        }
        Map<Path, FileTime> used = new HashMap<>();
        for (Path d : dirs) {
            try {
                used.put(d, Files.getLastModifiedTime(d));
            } catch (IOException e) {
                used.put(d, FileTime.fromMillis(0));
            }
        }
        dirs.sort(Comparator.comparing(used::get, Comparator.reverseOrder()));
        Instant oldest = Instant.now().minus(UNUSED);
        for (int i = 0; i < dirs.size(); i++) {
            Path d = dirs.get(i);
            if (!d.equals(own) && (i >= KEPT_KEYS || used.get(d).toInstant().isBefore(oldest))) {
                delete(d);
            }
        }
    }

    private static void delete(Path d) {
        try (Stream<Path> s = Files.walk(d)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // another process removes or writes it: left for a later clean-up
                }
            });
        } catch (IOException | UncheckedIOException e) {
            LOG.debug("class cache: cannot remove {}: {}", d, e.toString());
        }
    }

    /** The warnings logged because a cache directory could not be used, oldest first (for tests and diagnostics). */
    public static List<String> warnings() {
        return List.copyOf(WARNINGS);
    }

    /** The directory of this cache's key (for tests and diagnostics). */
    public Path directory() {
        return dir;
    }

    /**
     * The class file for {@code internalName}: from the cache if a valid entry is there, its pin sites
     * registered for {@code owner} and the warnings of its load logged (its {@link HugeMethods} too); else
     * {@code compute}'s, written to the cache. An exception of {@code compute} (a refusal) propagates and
     * nothing is written.
     */
    public byte[] bytes(String internalName, Object owner, Supplier<byte[]> compute) {
        byte[] entryKey = entryKey(internalName);
        Path file = file(entryKey);
        byte[] hit = read(file, entryKey, internalName, owner);
        if (hit != null) {
            HugeMethods.check(internalName, hit, parent);
            return hit;
        }
        List<Integer> reported = new ArrayList<>();
        byte[] b;
        try (Pins.Recording r = Pins.recordReports(reported)) {
            b = compute.get();
        }
        return write(file, entryKey, internalName, b, reported);
    }

    private byte[] entryKey(String internalName) {
        MessageDigest md = ClassPathKey.sha256();
        md.update(key);
        md.update(internalName.getBytes(StandardCharsets.UTF_8));
        return md.digest();
    }

    /**
     * The classes a scope of this key defines ({@link Scope#defined()}), as recorded by {@link
     * #recordDefined} when a loader of this key analysed it, or {@code null} if none did: with them, a
     * loader can serve its cached classes without analysing the scope.
     */
    public Set<String> defined() {
        return names(DEFINED);
    }

    /** Records the classes a scope of this key defines ({@link #defined()}). */
    public void recordDefined(Set<String> names) {
        recordNames(DEFINED, names);
    }

    /**
     * The names a route recorded under {@code list} ({@link #recordNames}), or {@code null} if none did
     * (what else a route needs of an analysed scope to serve its hits without analysing it).
     *
     * @param list a name that starts with {@code /}, which no class has
     */
    public Set<String> names(String list) {
        byte[] entryKey = entryKey(checkList(list));
        byte[] b = read(file(entryKey), entryKey, list, null);
        if (b == null) {
            return null;
        }
        Set<String> out = new HashSet<>();
        for (String n : new String(b, StandardCharsets.UTF_8).split("\n")) {
            if (!n.isEmpty()) {
                out.add(n);
            }
        }
        return out;
    }

    /** Records {@code names} under {@code list} ({@link #names}). */
    public void recordNames(String list, Set<String> names) {
        byte[] entryKey = entryKey(checkList(list));
        store(file(entryKey), entryKey, list, String.join("\n", new TreeSet<>(names)).getBytes(StandardCharsets.UTF_8),
                Map.of());
    }

    private static String checkList(String list) {
        if (!list.startsWith("/")) {
            throw new IllegalArgumentException("list: \"" + list + "\" (expected: a name that starts with /)");
        }
        return list;
    }

    private Path file(byte[] entryKey) {
        return dir.resolve(hex(entryKey, 20) + ".class-entry");
    }

    /** A site as registered: what {@link Pins#registration} returns, with the id and whether it was reported. */
    private static final class Site {
        final int id;
        final Object[] registration;
        boolean reported;
        /** Where its id is in the class file (a {@code CONSTANT_Integer}'s value), or -1 if it is not. */
        int offset = -1;

        Site(int id, Object[] registration) {
            this.id = id;
            this.registration = registration;
        }
    }

    /** Writes the entry of {@code b}; returns the class file to define, {@code b} or its patchable form. */
    private byte[] write(Path file, byte[] entryKey, String internalName, byte[] b, List<Integer> reported) {
        Map<Integer, Site> sites = new LinkedHashMap<>();
        for (int id : SiteIds.in(b)) {
            sites.computeIfAbsent(id, k -> new Site(k, Pins.registration(k)));
        }
        if (!sites.isEmpty()) {
            Map<Integer, Integer> offsets = new HashMap<>();
            byte[] patchable = SiteIds.patchable(b, sites.keySet(), offsets);
            if (patchable == null) {
                LOG.debug("class cache: the site ids of {} cannot be given entries of their own; not cached", internalName);
                return b;
            }
            b = patchable;
            for (Site s : sites.values()) {
                s.offset = offsets.get(s.id);
            }
        }
        for (int id : reported) {
            sites.computeIfAbsent(id, k -> new Site(k, Pins.registration(k))).reported = true;
        }
        store(file, entryKey, internalName, b, sites);
        return b;
    }

    private void store(Path file, byte[] entryKey, String internalName, byte[] b, Map<Integer, Site> sites) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(b.length + 256);
        try (DataOutputStream out = new DataOutputStream(buf)) {
            out.writeInt(MAGIC);
            out.writeInt(FORMAT);
            out.write(entryKey);
            out.writeUTF(internalName);
            out.writeInt(sites.size());
            for (Site s : sites.values()) {
                Object[] r = s.registration;
                if (r == null) {
                    LOG.debug("class cache: {} names pin site {}, which is not registered; not cached", internalName, s.id);
                    return;
                }
                out.writeInt(s.offset);
                out.writeBoolean(s.reported);
                out.writeUTF((String) r[0]);
                out.writeUTF((String) r[1]);
                out.writeInt((Integer) r[2]);
                out.writeUTF(((Pins.Reason) r[3]).name());
                out.writeBoolean(r[4] != null);
                out.writeUTF(r[4] == null ? "" : (String) r[4]);
                out.writeBoolean((Boolean) r[5]);
            }
            out.writeInt(b.length);
            out.write(b);
        } catch (IOException | RuntimeException e) {
            LOG.debug("class cache: cannot encode {}: {}", internalName, e.toString());
            return;
        }
        byte[] body = buf.toByteArray();
        byte[] sum = ClassPathKey.sha256().digest(body);
        Path tmp = null;
        try {
            Files.createDirectories(dir, CacheRoot.ownerOnly());
            tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
            Files.write(tmp, ByteBuffer.allocate(body.length + DIGEST).put(body).put(sum).array());
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            tmp = null;
        } catch (AtomicMoveNotSupportedException e) {
            LOG.debug("class cache {}: atomic moves are not supported; not cached", dir);
        } catch (IOException | RuntimeException e) {
            LOG.debug("class cache: cannot write {}: {}", file, e.toString());
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // left for the clean-up of its directory
                }
            }
        }
    }

    /** The entry's class file, its sites registered and reported, or {@code null} if there is no valid entry. */
    private static byte[] read(Path file, byte[] entryKey, String internalName, Object owner) {
        byte[] all;
        try {
            all = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            LOG.debug("class cache: cannot read {}: {}", file, e.toString());
            return null;
        }
        if (all.length < 8 + DIGEST + DIGEST) {
            return invalid(file, "truncated");
        }
        int bodyLength = all.length - DIGEST;
        MessageDigest md = ClassPathKey.sha256();
        md.update(all, 0, bodyLength);
        if (!Arrays.equals(md.digest(), Arrays.copyOfRange(all, bodyLength, all.length))) {
            return invalid(file, "checksum mismatch");
        }
        List<Object[]> sites = new ArrayList<>();
        List<Integer> offsets = new ArrayList<>();
        List<Boolean> reported = new ArrayList<>();
        byte[] b;
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(all, 0, bodyLength))) {
            if (in.readInt() != MAGIC || in.readInt() != FORMAT) {
                return invalid(file, "not an entry of this format");
            }
            byte[] k = new byte[DIGEST];
            in.readFully(k);
            if (!Arrays.equals(k, entryKey) || !in.readUTF().equals(internalName)) {
                return invalid(file, "another key's or class's entry");
            }
            int n = in.readInt();
            for (int i = 0; i < n; i++) {
                offsets.add(in.readInt());
                reported.add(in.readBoolean());
                String className = in.readUTF();
                String method = in.readUTF();
                int line = in.readInt();
                Pins.Reason reason = Pins.Reason.valueOf(in.readUTF());
                boolean hasDetail = in.readBoolean();
                String detail = in.readUTF();
                sites.add(new Object[] {className, method, line, reason, hasDetail ? detail : null, in.readBoolean()});
            }
            b = new byte[in.readInt()];
            in.readFully(b);
            if (in.available() != 0) {
                return invalid(file, "trailing bytes");
            }
            for (int off : offsets) {
                if (off != -1 && (off < 1 || off + 4 > b.length || b[off - 1] != SiteIds.CONSTANT_INTEGER)) {
                    return invalid(file, "site offset " + off + " is not an int constant");
                }
            }
        } catch (IOException | RuntimeException e) {
            return invalid(file, e.toString());
        }
        int[] ids = new int[sites.size()];
        if (ids.length == 0) {
            return b;
        }
        try (Pins.Group g = Pins.openGroup(owner)) {
            for (int i = 0; i < ids.length; i++) {
                Object[] r = sites.get(i);
                ids[i] = Pins.register((String) r[0], (String) r[1], (Integer) r[2], (Pins.Reason) r[3], (String) r[4],
                        (Boolean) r[5]);
            }
        }
        for (int i = 0; i < ids.length; i++) {
            int off = offsets.get(i);
            if (off != -1) {
                SiteIds.putInt(b, off, ids[i]);
            }
        }
        for (int i = 0; i < ids.length; i++) {
            if (reported.get(i)) {
                Pins.report(ids[i]);
            }
        }
        return b;
    }

    /**
     * {@code b} with each pin-site id it names replaced by 0, each site's description ({@link
     * Pins#describe}) added to {@code sites} in order: two class files that name the same sites by
     * different ids compare equal so (for tests and diagnostics).
     */
    public static byte[] withoutSiteIds(byte[] b, List<String> sites) {
        ClassReader r = new ClassReader(b);
        ClassWriter w = new ClassWriter(0);
        r.accept(new SiteIds.Renumbering(w, id -> {
            sites.add(Pins.describe(id));
            return 0;
        }), 0);
        return w.toByteArray();
    }

    private static byte[] invalid(Path file, String why) {
        LOG.debug("class cache: ignoring {} ({})", file, why);
        return null;
    }

    static String hex(byte[] b, int bytes) {
        StringBuilder s = new StringBuilder(bytes * 2);
        for (int i = 0; i < bytes; i++) {
            s.append(Character.forDigit((b[i] >> 4) & 0xF, 16)).append(Character.forDigit(b[i] & 0xF, 16));
        }
        return s.toString();
    }

    /** The pin-site ids a class file names: an {@code ldc} of an int just before a call that takes a site. */
    static final class SiteIds {
        /** The tag of a {@code CONSTANT_Integer} constant-pool entry. */
        static final int CONSTANT_INTEGER = 3;
        /** The first value tried for the placeholders {@link #patchable} gives the sites' constants. */
        private static final int PLACEHOLDERS = 0x5EED_0000;

        private SiteIds() {
        }

        /** The site ids {@code b} names, in order of appearance. */
        static List<Integer> in(byte[] b) {
            List<Integer> out = new ArrayList<>();
            if (mayNameSites(b)) {
                new ClassReader(b).accept(new Renumbering(null, id -> {
                    out.add(id);
                    return id;
                }), 0);
            }
            return out;
        }

        /**
         * {@code b} with the id of each site of {@code ids} in a {@code CONSTANT_Integer} entry that only the
         * {@code ldc}s of that site use (a value no constant of {@code b} has, written back to the site's id),
         * each entry's offset in the result put into {@code offsets} by id; {@code null} if there is no
         * such range of values.
         */
        static byte[] patchable(byte[] b, Set<Integer> ids, Map<Integer, Integer> offsets) {
            ClassReader r = new ClassReader(b);
            Set<Integer> constants = new HashSet<>();
            for (int i = 1; i < r.getItemCount(); i++) {
                int off = r.getItem(i);
                if (off > 0 && b[off - 1] == CONSTANT_INTEGER) {
                    constants.add(r.readInt(off));
                }
            }
            List<Integer> order = new ArrayList<>(ids);
            int base = PLACEHOLDERS;
            while (!free(constants, base, order.size())) {
                base += 0x0100_0000;
                if (base < PLACEHOLDERS) {
                    return null;
                }
            }
            Map<Integer, Integer> placeholder = new HashMap<>();
            for (int k = 0; k < order.size(); k++) {
                placeholder.put(order.get(k), base + k);
            }
            ClassWriter w = new ClassWriter(r, 0);
            r.accept(new Renumbering(w, id -> placeholder.getOrDefault(id, id)), 0);
            byte[] out = w.toByteArray();
            ClassReader o = new ClassReader(out);
            Map<Integer, Integer> byValue = new HashMap<>();
            for (int i = 1; i < o.getItemCount(); i++) {
                int off = o.getItem(i);
                if (off > 0 && out[off - 1] == CONSTANT_INTEGER) {
                    int v = o.readInt(off);
                    if (v - base >= 0 && v - base < order.size() && byValue.put(v, off) != null) {
                        return null;
                    }
                }
            }
            for (int k = 0; k < order.size(); k++) {
                Integer off = byValue.get(base + k);
                if (off == null) {
                    return null;
                }
                int id = order.get(k);
                offsets.put(id, off);
                putInt(out, off, id);
            }
            return out;
        }

        /** Writes {@code v} big-endian at {@code off}, as a class file holds an int. */
        static void putInt(byte[] b, int off, int v) {
            b[off] = (byte) (v >>> 24);
            b[off + 1] = (byte) (v >>> 16);
            b[off + 2] = (byte) (v >>> 8);
            b[off + 3] = (byte) v;
        }

        private static boolean free(Set<Integer> constants, int base, int n) {
            for (int k = 0; k < n; k++) {
                if (constants.contains(base + k)) {
                    return false;
                }
            }
            return true;
        }

        /** Whether the constant pool names an owner of {@link SiteConsumers#ALL} at all (a cheap pre-check). */
        private static boolean mayNameSites(byte[] b) {
            String s = new String(b, StandardCharsets.ISO_8859_1);
            return s.contains(Names.PINS) || s.contains("dev/flow/internal/Polling") || s.contains("dev/flow/internal/Locks")
                    || s.contains(Names.AWAITS) || s.contains(Names.PRIMITIVE_AWAITS);
        }

        /** Passes a class through, mapping the int of each {@code ldc} that pushes a site id. */
        private static final class Renumbering extends ClassVisitor {
            private final IntUnaryOperator map;

            Renumbering(ClassVisitor next, IntUnaryOperator map) {
                super(Opcodes.ASM9, next);
                this.map = map;
            }

            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                MethodVisitor next = super.visitMethod(access, name, desc, signature, exceptions);
                return new MethodVisitor(Opcodes.ASM9, next) {
                    /** An int pushed by {@code ldc} and not yet passed on, or {@code null}. */
                    private Integer pending;
                    /**
                     * Labels, frames and line numbers met after {@link #pending}, passed on after it: the engine
                     * puts the resume label of a call that can suspend between its site id and the call.
                     */
                    private final List<Runnable> after = new ArrayList<>();

                    private void flush() {
                        if (pending != null) {
                            pass(pending);
                        }
                    }

                    private void pass(int ldc) {
                        pending = null;
                        super.visitLdcInsn(ldc);
                        for (Runnable r : after) {
                            r.run();
                        }
                        after.clear();
                    }

                    @Override
                    public void visitLdcInsn(Object value) {
                        flush();
                        if (value instanceof Integer) {
                            pending = (Integer) value;
                        } else {
                            super.visitLdcInsn(value);
                        }
                    }

                    @Override
                    public void visitMethodInsn(int opcode, String owner, String n, String d, boolean itf) {
                        if (pending != null && opcode == Opcodes.INVOKESTATIC && SiteConsumers.ALL.contains(owner + "." + n + d)) {
                            pass(map.applyAsInt(pending));
                        }
                        flush();
                        super.visitMethodInsn(opcode, owner, n, d, itf);
                    }

                    @Override
                    public void visitInsn(int opcode) {
                        flush();
                        super.visitInsn(opcode);
                    }

                    @Override
                    public void visitIntInsn(int opcode, int operand) {
                        flush();
                        super.visitIntInsn(opcode, operand);
                    }

                    @Override
                    public void visitVarInsn(int opcode, int var) {
                        flush();
                        super.visitVarInsn(opcode, var);
                    }

                    @Override
                    public void visitTypeInsn(int opcode, String type) {
                        flush();
                        super.visitTypeInsn(opcode, type);
                    }

                    @Override
                    public void visitFieldInsn(int opcode, String owner, String n, String d) {
                        flush();
                        super.visitFieldInsn(opcode, owner, n, d);
                    }

                    @Override
                    public void visitInvokeDynamicInsn(String n, String d, Handle bsm, Object... args) {
                        flush();
                        super.visitInvokeDynamicInsn(n, d, bsm, args);
                    }

                    @Override
                    public void visitJumpInsn(int opcode, Label label) {
                        flush();
                        super.visitJumpInsn(opcode, label);
                    }

                    @Override
                    public void visitLabel(Label label) {
                        if (pending != null) {
                            after.add(() -> super.visitLabel(label));
                        } else {
                            super.visitLabel(label);
                        }
                    }

                    @Override
                    public void visitIincInsn(int var, int increment) {
                        flush();
                        super.visitIincInsn(var, increment);
                    }

                    @Override
                    public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
                        flush();
                        super.visitTableSwitchInsn(min, max, dflt, labels);
                    }

                    @Override
                    public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
                        flush();
                        super.visitLookupSwitchInsn(dflt, keys, labels);
                    }

                    @Override
                    public void visitMultiANewArrayInsn(String d, int dims) {
                        flush();
                        super.visitMultiANewArrayInsn(d, dims);
                    }

                    @Override
                    public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
                        if (pending != null) {
                            // ClassReader reads the next frame into these same arrays as soon as this call returns.
                            Object[] l = local == null ? null : local.clone();
                            Object[] st = stack == null ? null : stack.clone();
                            after.add(() -> super.visitFrame(type, numLocal, l, numStack, st));
                        } else {
                            super.visitFrame(type, numLocal, local, numStack, stack);
                        }
                    }

                    @Override
                    public void visitLineNumber(int line, Label start) {
                        if (pending != null) {
                            after.add(() -> super.visitLineNumber(line, start));
                        } else {
                            super.visitLineNumber(line, start);
                        }
                    }

                    @Override
                    public void visitMaxs(int maxStack, int maxLocals) {
                        flush();
                        super.visitMaxs(maxStack, maxLocals);
                    }

                    @Override
                    public void visitEnd() {
                        flush();
                        super.visitEnd();
                    }
                };
            }
        }
    }
}
