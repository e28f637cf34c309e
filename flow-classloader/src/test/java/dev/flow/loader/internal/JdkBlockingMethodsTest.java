package dev.flow.loader.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.internal.Awaits;
import dev.flow.spi.SuspensionPoint;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Type;

/**
 * Walks the running JDK's public blocking API and checks that the loader knows every method that can
 * block a worker: each one suspends, is reported once per call site (refused in strict mode), or is on
 * {@link JdkBlockingAllowList} with the reason it needs neither. A new JDK that adds a blocking method
 * fails this test until the method is classified.
 *
 * <p><b>Which methods can block</b> (the rule this test applies). A method is a candidate if it is
 * public or protected, declared (not inherited) by a public type of {@code java.base} found in the
 * {@code jrt:/} file system in one of {@link #CONCURRENCY} or {@link #IO}, not synthetic, and
 * <ol>
 *   <li>declares {@link InterruptedException} (every JDK method that waits interruptibly does), or
 *   <li>in a concurrency package, has a name of {@link #WAIT_NAMES} (the uninterruptible waits:
 *       {@code lock}, {@code join}, {@code acquireUninterruptibly}, {@code park}, ...), or
 *   <li>in an I/O package, has a name of {@link #IO_NAMES} (reads, writes, connects, accepts, selects,
 *       file locks, name lookups).
 * </ol>
 *
 * <p>Outside those packages, {@link #READERS_ELSEWHERE} ({@code java.util.Scanner}) is walked too, its reads
 * by {@link #SCANNER_NAMES}; {@link #MUST_BE_WALKED} names blocking methods the walk must meet.
 *
 * <p><b>Classified</b> means one of: a {@link BuiltinSuspensionPoints} entry matches it (same name and
 * parameters, declared by the entry's owner or a subtype): it suspends (except the {@code java.io}
 * stream points, which suspend only for a transport's own views); a {@link SiteCalls} rule matches
 * it: a blocking call reported once per site, or an owner-based lock acquisition that is followed (and
 * reported at its site when a lock made outside the scope is contended); a stream point's method of a
 * stream its replacement reports at the call site ({@code Awaits.reportsAtSite}: piped streams); or
 * {@link JdkBlockingAllowList} names it, its type or one of its supertypes' declarations with a reason.
 */
class JdkBlockingMethodsTest {

    /** Packages whose waits are primitives of their own. */
    static final List<String> CONCURRENCY = List.of("java.lang", "java.lang.ref", "java.util.concurrent",
            "java.util.concurrent.locks");
    /** Packages whose waits are I/O. */
    static final List<String> IO = List.of("java.io", "java.nio.channels", "java.net");

    /** Names of uninterruptible waits in the concurrency packages (prefixes end with {@code *}). */
    static final List<String> WAIT_NAMES = List.of("await*", "acquire*", "lock*", "readLock*", "writeLock*", "join",
            "quietlyJoin*", "take*", "put*", "transfer", "tryTransfer", "exchange", "invoke*", "quietlyInvoke",
            "helpQuiesce", "awaitQuiescence", "managedBlock", "park*", "sleep", "wait", "waitFor", "submit", "offer*",
            "close", "arriveAndAwaitAdvance", "get", "remove");
    /**
     * Types outside those packages whose reads wait on a source they wrap, walked with {@link #SCANNER_NAMES}:
     * {@code Scanner} over a stream, reader or channel.
     */
    static final List<String> READERS_ELSEWHERE = List.of("java.util.Scanner");
    /** Names of {@code Scanner}'s calls that read its source (prefixes end with {@code *}). */
    static final List<String> SCANNER_NAMES = List.of("next*", "hasNext*", "find*", "skip", "tokens", "findAll");

    /** Names of I/O calls that can wait for a peer, a device or another process (prefixes end with {@code *}). */
    static final List<String> IO_NAMES = List.of("read*", "write*", "print*", "format", "append", "flush", "skip*",
            "transferTo", "transferFrom", "accept", "connect", "finishConnect", "receive", "send", "select*", "lock",
            "getInputStream", "getOutputStream", "getContent", "getResponseCode", "getResponseMessage", "openStream",
            "getByName", "getAllByName", "getLocalHost", "getCanonicalHostName", "getHostName", "isReachable",
            "available", "close");

    @Test
    void everyJdkMethodThatCanBlockSuspendsIsReportedOrIsAllowedWithAReason() throws IOException {
        List<SuspensionPoint> points = BuiltinSuspensionPoints.builtins();
        Set<String> unclassified = new TreeSet<>();
        int candidates = 0;
        for (Class<?> type : publicTypes()) {
            boolean io = IO.contains(type.getPackageName());
            for (Method m : type.getDeclaredMethods()) {
                if (READERS_ELSEWHERE.contains(type.getName()) ? !matches(m, SCANNER_NAMES) : !canBlock(m, io)) {
                    continue;
                }
                candidates++;
                if (!suspends(m, points) && !reported(m) && JdkBlockingAllowList.reason(m) == null) {
                    unclassified.add(type.getName() + "." + m.getName() + Type.getMethodDescriptor(m));
                }
            }
        }
        assertTrue(candidates > 500, "candidates: " + candidates + " (expected: > 500): the walk is broken");
        assertTrue(unclassified.isEmpty(), unclassified.size() + " JDK methods that can block are not classified (make each "
                + "suspend, add a SiteCalls rule, or add it to JdkBlockingAllowList with a reason):\n  "
                + String.join("\n  ", unclassified));
    }

    /**
     * Blocking methods the walk must meet and classify, so that a change of its rule or packages cannot drop
     * them unnoticed: {@code Type.method}, every declaration of that name by the type.
     */
    static final List<String> MUST_BE_WALKED = List.of("java.io.Console.readLine", "java.util.Scanner.nextLine",
            "java.util.Scanner.hasNext", "java.io.ObjectInputStream.readObject", "java.io.SequenceInputStream.read",
            "java.io.LineNumberReader.readLine", "java.io.DataInputStream.readLine", "java.io.DataOutputStream.writeInt",
            "java.io.PipedInputStream.read", "java.io.PipedReader.read", "java.io.PipedWriter.write",
            "java.io.InputStream.readAllBytes", "java.io.InputStream.transferTo", "java.io.InputStream.skipNBytes",
            "java.util.concurrent.Exchanger.exchange", "java.util.concurrent.Phaser.awaitAdvance",
            "java.util.concurrent.Phaser.awaitAdvanceInterruptibly", "java.util.concurrent.CountDownLatch.await",
            "java.util.concurrent.CyclicBarrier.await", "java.util.concurrent.Semaphore.acquire",
            "java.util.concurrent.ForkJoinTask.join", "java.lang.Process.waitFor", "java.lang.Thread.join",
            "java.lang.Object.wait", "java.util.concurrent.locks.LockSupport.park",
            "java.util.concurrent.locks.LockSupport.parkNanos", "java.nio.channels.Selector.select",
            "java.net.ServerSocket.accept", "java.net.DatagramSocket.receive", "java.nio.channels.FileChannel.lock",
            "java.net.Socket.connect", "java.net.InetAddress.getByName", "java.net.InetAddress.getAllByName",
            "java.net.InetAddress.getLocalHost", "java.net.InetAddress.getCanonicalHostName", "java.net.InetAddress.getHostName",
            "java.net.URL.openStream", "java.net.URLConnection.getInputStream", "java.net.HttpURLConnection.getResponseCode",
            "java.nio.channels.SocketChannel.read", "java.nio.channels.SocketChannel.write",
            "java.nio.channels.SocketChannel.connect", "java.nio.channels.SocketChannel.finishConnect",
            "java.nio.channels.ServerSocketChannel.accept", "java.nio.channels.DatagramChannel.receive",
            "java.nio.channels.DatagramChannel.send");

    @Test
    void theWalkMeetsAndClassifiesTheKnownBlockingMethods() throws IOException {
        List<Class<?>> walked = publicTypes();
        List<SuspensionPoint> points = BuiltinSuspensionPoints.builtins();
        List<String> missed = new ArrayList<>();
        for (String key : MUST_BE_WALKED) {
            int dot = key.lastIndexOf('.');
            Class<?> type;
            try {
                type = Class.forName(key.substring(0, dot), false, null);
            } catch (ClassNotFoundException e) {
                missed.add(key + ": no such type");
                continue;
            }
            String name = key.substring(dot + 1);
            List<Method> declared = Arrays.stream(type.getDeclaredMethods()).filter(m -> m.getName().equals(name)
                    && Modifier.isPublic(m.getModifiers())).collect(Collectors.toList());
            if (!walked.contains(type) || declared.isEmpty()) {
                missed.add(key + ": not walked");
            }
            for (Method m : declared) {
                boolean candidate = READERS_ELSEWHERE.contains(type.getName()) ? matches(m, SCANNER_NAMES)
                        : canBlock(m, IO.contains(type.getPackageName()));
                if (!candidate) {
                    missed.add(key + Type.getMethodDescriptor(m) + ": not a candidate");
                } else if (!suspends(m, points) && !reported(m) && JdkBlockingAllowList.reason(m) == null) {
                    missed.add(key + Type.getMethodDescriptor(m) + ": not classified");
                }
            }
        }
        assertTrue(missed.isEmpty(), "known blocking methods the walk misses: " + missed);
    }

    /**
     * Constructors are not walked by the rule above: the JDK's that wait are named here. Every public constructor
     * of {@code java.net.Socket} with a port connects, of {@code InetSocketAddress} with a {@code String} host
     * resolves it, and of {@code Scanner} over a stream, {@code Readable} or channel reads it inside the JDK: each
     * is matched by a {@link SiteCalls} rule; the others ({@code Socket()}, {@code Socket(Proxy)}, {@code
     * InetSocketAddress(InetAddress, int)}, {@code Scanner(String)}, a file's...) are not.
     */
    @Test
    void theConstructorsThatWaitInsideTheJdkAreReportedAndTheOthersAreNot() {
        List<String> wrong = new ArrayList<>();
        for (Class<?> type : List.of(java.net.Socket.class, java.net.InetSocketAddress.class, java.util.Scanner.class)) {
            for (java.lang.reflect.Constructor<?> k : type.getConstructors()) {
                List<Class<?>> params = Arrays.asList(k.getParameterTypes());
                boolean waits = type == java.net.Socket.class ? params.contains(int.class)
                        : type == java.net.InetSocketAddress.class ? params.get(0) == String.class
                        : params.get(0) == java.io.InputStream.class || params.get(0) == Readable.class
                                || params.get(0) == java.nio.channels.ReadableByteChannel.class;
                boolean reported = SiteCalls.match(Type.getInternalName(type), "<init>", Type.getConstructorDescriptor(k), false,
                        JdkBlockingMethodsTest::isSubtype) != null;
                if (waits != reported) {
                    wrong.add(k + (waits ? ": waits, not reported" : ": reported, does not wait"));
                }
            }
        }
        assertTrue(wrong.isEmpty(), "constructors classified wrongly: " + wrong);
    }

    @Test
    void everyAllowListEntryNamesAMethodOfTheRunningJdk() throws IOException {
        Set<String> used = new LinkedHashSet<>();
        for (Class<?> type : publicTypes()) {
            for (Method m : type.getDeclaredMethods()) {
                used.addAll(JdkBlockingAllowList.keysMatching(m));
            }
        }
        List<String> stale = JdkBlockingAllowList.keys(Runtime.version().feature()).stream()
                .filter(k -> !used.contains(k)).collect(Collectors.toList());
        assertTrue(stale.isEmpty(), "allow-list entries that match no method of JDK " + Runtime.version().feature()
                + " (remove them or give the JDK release that adds the method): " + stale);
    }

    /**
     * Pipes wait for their other end inside the JDK: every public method of {@code PipedInputStream},
     * {@code PipedOutputStream}, {@code PipedReader} and {@code PipedWriter} (inherited ones included,
     * which the walk above classifies by their {@code InputStream}/{@code Reader}/... declaration) that can
     * block is reported at its call site when called on the pipe's own type, on the type that declares it
     * ({@code InputStream}, {@code Reader}, {@code Writer}) and on every interface of the pipe that declares
     * it ({@code Readable}, {@code Appendable}), or is one that {@link #PIPE_UNREPORTED} names.
     */
    @Test
    void everyPipeMethodThatCanBlockIsReportedAtItsSiteOrNamedAsNot() {
        List<String> unreported = new ArrayList<>();
        for (Class<?> type : PIPES) {
            for (Method m : type.getMethods()) {
                String key = m.getName() + Type.getMethodDescriptor(m);
                if (!canBlock(m, true) || PIPE_UNREPORTED.contains(key)) {
                    continue;
                }
                for (Class<?> owner : ownersOf(type, m)) {
                    if (!reportedByStreamSite(type, m) && SiteCalls.match(Type.getInternalName(owner), m.getName(),
                            Type.getMethodDescriptor(m), false, JdkBlockingMethodsTest::isSubtype) == null) {
                        unreported.add(owner.getSimpleName() + "." + key + " on a " + type.getSimpleName());
                    }
                }
            }
        }
        assertTrue(unreported.isEmpty(), "pipe methods that can block and are not reported: " + unreported);
    }

    /** The JDK's pipes. */
    static final List<Class<?>> PIPES = List.of(java.io.PipedInputStream.class, java.io.PipedOutputStream.class,
            java.io.PipedReader.class, java.io.PipedWriter.class);

    /**
     * The types a call of {@code m} on a {@code type} can name as its owner: {@code type}, the class that
     * declares {@code m}, and each interface of {@code type} that declares the same method.
     */
    private static Set<Class<?>> ownersOf(Class<?> type, Method m) {
        Set<Class<?>> out = new LinkedHashSet<>(List.of(type, m.getDeclaringClass()));
        Deque<Class<?>> todo = new ArrayDeque<>(List.of(type));
        while (!todo.isEmpty()) {
            Class<?> t = todo.pop();
            for (Class<?> i : t.getInterfaces()) {
                todo.push(i);
                try {
                    i.getMethod(m.getName(), m.getParameterTypes());
                    out.add(i);
                } catch (NoSuchMethodException e) {
                    // not declared there
                }
            }
            if (t.getSuperclass() != null) {
                todo.push(t.getSuperclass());
            }
        }
        return out;
    }

    /**
     * The pipes' methods that can block (by the walk's rule) and are not reported: {@code available},
     * {@code ready}, {@code flush}, {@code close} and {@code connect} never wait for the other end (they
     * only take the pipe's monitor, which a waiting end releases while it waits).
     */
    static final List<String> PIPE_UNREPORTED = List.of("available()I", "ready()Z", "flush()V", "close()V",
            "connect(Ljava/io/PipedInputStream;)V", "connect(Ljava/io/PipedOutputStream;)V",
            "connect(Ljava/io/PipedReader;)V", "connect(Ljava/io/PipedWriter;)V");

    static boolean canBlock(Method m, boolean io) {
        int mod = m.getModifiers();
        if (m.isSynthetic() || m.isBridge() || !(Modifier.isPublic(mod) || Modifier.isProtected(mod))) {
            return false;
        }
        if (Arrays.asList(m.getExceptionTypes()).contains(InterruptedException.class)) {
            return true;
        }
        return matches(m, io ? IO_NAMES : WAIT_NAMES);
    }

    /** Whether {@code m} is public or protected, not synthetic, and named by {@code names} (prefixes end with {@code *}). */
    private static boolean matches(Method m, List<String> names) {
        int mod = m.getModifiers();
        if (m.isSynthetic() || m.isBridge() || !(Modifier.isPublic(mod) || Modifier.isProtected(mod))) {
            return false;
        }
        for (String n : names) {
            if (n.endsWith("*") ? m.getName().startsWith(n.substring(0, n.length() - 1)) : m.getName().equals(n)) {
                return true;
            }
        }
        return false;
    }

    private static boolean suspends(Method m, List<SuspensionPoint> points) {
        String desc = Type.getMethodDescriptor(m);
        String params = desc.substring(0, desc.indexOf(')') + 1);
        for (SuspensionPoint p : points) {
            if (isStreamForm(p)) {
                continue;
            }
            if (p.name().equals(m.getName()) && p.descriptor().startsWith(params)
                    && isSubtype(Type.getInternalName(m.getDeclaringClass()), p.owner())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The {@code InputStream}/{@code OutputStream} points suspend only for a transport's own stream views
     * and make the plain call for any other stream, so they classify no JDK stream.
     */
    private static boolean isStreamForm(SuspensionPoint p) {
        return Names.AWAITS.equals(p.replacementOwner())
                && (p.replacementName().startsWith("input") || p.replacementName().startsWith("output"));
    }

    /**
     * Whether a call of {@code m} on its declaring type is reported at its site: a {@link SiteCalls} rule
     * matches it (a pipe rule only counts for a pipe's own declaration: on {@code Reader}, {@code
     * InputStream}... it reports pipes alone, and the type's other streams are classified by the
     * allow-list), or it is a stream point of a pipe.
     */
    private static boolean reported(Method m) {
        Class<?> type = m.getDeclaringClass();
        SiteCalls.Kind k = SiteCalls.match(Type.getInternalName(type), m.getName(), Type.getMethodDescriptor(m),
                Modifier.isStatic(m.getModifiers()), JdkBlockingMethodsTest::isSubtype);
        return reportedByStreamSite(type, m) || (k != null && (k != SiteCalls.Kind.PIPE || dev.flow.internal.Polling.isPipe(type)));
    }

    /**
     * A method, of {@code type} or inherited by it, that is a stream suspension point, where {@code type}
     * is a stream the points' replacements report at their call site ({@code Awaits.reportsAtSite}: piped
     * streams).
     */
    private static boolean reportedByStreamSite(Class<?> type, Method m) {
        if (!Awaits.reportsAtSite(type)) {
            return false;
        }
        String desc = Type.getMethodDescriptor(m);
        String params = desc.substring(0, desc.indexOf(')') + 1);
        for (SuspensionPoint p : BuiltinSuspensionPoints.builtins()) {
            if (isStreamForm(p) && !p.name().equals("flush") && p.name().equals(m.getName()) && p.descriptor().startsWith(params)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isSubtype(String type, String target) {
        try {
            return load(target).isAssignableFrom(load(type));
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static Class<?> load(String internalName) throws ClassNotFoundException {
        return Class.forName(internalName.replace('/', '.'), false, null);
    }

    /** The public types (nested ones included) of the packages walked, from the running JDK's {@code jrt:/} file system. */
    static List<Class<?>> publicTypes() throws IOException {
        FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        List<Class<?>> out = new ArrayList<>();
        for (String pkg : Stream.of(CONCURRENCY.stream(), IO.stream(), Stream.of("java.util")).flatMap(x -> x)
                .collect(Collectors.toList())) {
            Path dir = jrt.getPath("/modules/java.base/" + pkg.replace('.', '/'));
            List<Path> files;
            try (Stream<Path> s = Files.list(dir)) {
                files = s.filter(f -> f.toString().endsWith(".class")).sorted().collect(Collectors.toList());
            }
            if (pkg.equals("java.util")) {
                files = files.stream().filter(f -> READERS_ELSEWHERE.contains(pkg + "." + f.getFileName().toString()
                        .replace(".class", ""))).collect(Collectors.toList());
            }
            for (Path f : files) {
                String simple = f.getFileName().toString();
                String name = pkg + "." + simple.substring(0, simple.length() - ".class".length());
                if (name.endsWith("module-info") || name.endsWith("package-info")) {
                    continue;
                }
                Class<?> c;
                try {
                    c = Class.forName(name, false, null);
                } catch (ClassNotFoundException | LinkageError e) {
                    continue;
                }
                if (isPublicApi(c)) {
                    out.add(c);
                }
            }
        }
        return out;
    }

    private static boolean isPublicApi(Class<?> c) {
        Deque<Class<?>> chain = new ArrayDeque<>();
        for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
            chain.push(k);
        }
        return !c.isAnonymousClass() && chain.stream().allMatch(k -> Modifier.isPublic(k.getModifiers()));
    }
}
