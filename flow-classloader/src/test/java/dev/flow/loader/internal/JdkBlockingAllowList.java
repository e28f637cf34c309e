package dev.flow.loader.internal;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.objectweb.asm.Type;

/**
 * The JDK methods that {@link JdkBlockingMethodsTest}'s rule names as possibly blocking but that
 * neither suspend nor are reported, each with the reason. A key is a type ({@code java.io.Reader}: every
 * candidate that type or a subtype declares), a method ({@code java.util.Queue.offer}: that name,
 * declared by the type or a subtype) or a method with a parameter-descriptor prefix ({@code
 * java.util.Queue.offer(Ljava/lang/Object;)}). Stateless.
 */
final class JdkBlockingAllowList {

    /** The reason shared by lookups that never wait. */
    static final String NON_BLOCKING = "non-blocking: returns at once (the rule matched its name only)";
    static final String UNBOUNDED = "never waits: the queue is unbounded, so it has room at once";
    static final String IN_MEMORY = "never waits: reads and writes memory";
    static final String STREAMS = "a JDK stream, reader or writer waits only as long as what it wraps: the "
            + "InputStream.read and OutputStream.write/flush suspension points suspend for a transport's own stream "
            + "views and make the plain call otherwise; a JDK decorator around a view pins (reported per site); file "
            + "and memory streams do not wait for a peer; pipes are reported at their sites (PipedInputStream..., "
            + "classified on their own), and so are a plain JDK socket's streams (Socket.getInputStream..., "
            + "Polling.isJdkSocketStream), a process's streams (Process.getInputStream..., Polling.isProcessStream) "
            + ", System.in and a URL connection's streams (Polling.isUrlStream); unreported, a JDK decorator "
            + "made outside the scope over any of them: what it wraps is a protected field (FilterInputStream.in, "
            + "BufferedReader's private in...) of java.io, which java.base does not open to reflection (sun.misc.Unsafe "
            + "could read it, warning on JDK 24+: not used) (README 'Blocking calls with no suspendable form')";
    static final String SCANNER = "reads its source inside the JDK's frames: over a transport view it pins, "
            + "reported through the view (refused in strict mode when a read reaches the view); over a string "
            + "it never waits; one made in the scope over a pipe, a JDK socket's, a process's or a URL connection's "
            + "stream, System.in or a blocking channel is reported where it is made (SiteCalls' Scanner constructor "
            + "rule, Polling.scannerSource); one made outside the scope is not seen: its source is a private field of "
            + "java.util, which java.base does not open (README 'Blocking calls with no suspendable form')";
    static final String SOCKET_SPI = "a socket implementation's SPI (protected): called by the JDK's Socket, ServerSocket "
            + "and DatagramSocket, whose blocking calls are reported at their own sites, or implemented by the caller ("
            + "CALLBACK)";
    static final String DATAGRAM_CONNECT = "a datagram connect only records the peer's address (no handshake, the address "
            + "already resolved): does not wait";
    static final String CALLBACK = "an interface or hook the caller implements: the waits in its body are "
            + "classified at their own call sites, and a JDK caller of it pins (CALLBACK)";
    static final String LOCK_VIEW = "returns the lock object; acquiring it is Lock.lock, followed by SiteCalls";
    static final String PIPE_MONITOR = "never waits for the pipe's other end: it only takes the pipe's monitor, "
            + "which a waiting end releases while it waits (the pipe's reads and writes are reported at their site)";

    private static final List<Entry> ENTRIES = List.of(
            // java.lang
            e("java.lang.AutoCloseable.close", CALLBACK + " (ExecutorService.close is reported)"),
            e("java.lang.String.join", NON_BLOCKING),
            e("java.lang.ThreadLocal", NON_BLOCKING),
            e("java.lang.ClassValue", NON_BLOCKING),
            e("java.lang.ref.Reference.get", NON_BLOCKING),
            e("java.lang.ScopedValue", NON_BLOCKING, 25),
            e("java.lang.ScopedValue$Carrier", NON_BLOCKING, 25),
            e("java.util.concurrent.StructuredTaskScope$Joiner", NON_BLOCKING + ": makes a policy object", 25),
            e("java.util.concurrent.StructuredTaskScope$Subtask.get", NON_BLOCKING
                    + ": throws unless the subtask is done", 25),
            // java.util.concurrent: non-blocking forms and collections
            e("java.util.Queue.offer(Ljava/lang/Object;)", NON_BLOCKING + ": fails instead of waiting"),
            e("java.util.Deque.offerFirst(Ljava/lang/Object;)", NON_BLOCKING + ": fails instead of waiting"),
            e("java.util.Deque.offerLast(Ljava/lang/Object;)", NON_BLOCKING + ": fails instead of waiting"),
            e("java.util.Collection.remove", NON_BLOCKING),
            e("java.util.Queue.remove", NON_BLOCKING),
            e("java.util.List.remove", NON_BLOCKING),
            e("java.util.List.get", NON_BLOCKING),
            e("java.util.Map", NON_BLOCKING),
            e("java.util.concurrent.LinkedTransferQueue.tryTransfer(Ljava/lang/Object;)", NON_BLOCKING
                    + ": hands over only to a consumer already waiting"),
            e("java.util.concurrent.TransferQueue.tryTransfer(Ljava/lang/Object;)", NON_BLOCKING
                    + ": hands over only to a consumer already waiting"),
            e("java.util.concurrent.DelayQueue.put", UNBOUNDED),
            e("java.util.concurrent.DelayQueue.offer", UNBOUNDED),
            e("java.util.concurrent.ExecutorService.submit", NON_BLOCKING + ": hands the task over"),
            e("java.util.concurrent.CompletionService.submit", NON_BLOCKING + ": hands the task over"),
            e("java.util.concurrent.ForkJoinPool.submit", NON_BLOCKING + ": hands the task over"),
            e("java.util.concurrent.ThreadPoolExecutor.remove", NON_BLOCKING),
            e("java.util.concurrent.SubmissionPublisher.close", NON_BLOCKING + ": signals completion to subscribers"),
            e("java.util.concurrent.SubmissionPublisher.offer(Ljava/lang/Object;Ljava/util/function/BiPredicate;)",
                    NON_BLOCKING + ": drops instead of waiting"),
            e("java.util.concurrent.locks.ReadWriteLock.readLock", LOCK_VIEW),
            e("java.util.concurrent.locks.ReadWriteLock.writeLock", LOCK_VIEW),
            e("java.util.concurrent.ForkJoinPool.managedBlock", "runs the blocker's own isReleasable/block: "
                    + CALLBACK),
            e("java.util.concurrent.ForkJoinPool$ManagedBlocker", CALLBACK),
            e("java.util.concurrent.ForkJoinTask.invoke", "runs the task's compute() on the calling thread, where "
                    + "its waits are classified at their own sites (and pin as CALLBACK)"),
            e("java.util.concurrent.ForkJoinTask.quietlyInvoke", "runs the task's compute() on the calling thread, "
                    + "where its waits are classified at their own sites (and pin as CALLBACK)"),
            // java.io
            e("java.io.PipedInputStream.available", PIPE_MONITOR),
            e("java.io.PipedInputStream.close", PIPE_MONITOR),
            e("java.io.PipedInputStream.connect", PIPE_MONITOR),
            e("java.io.PipedInputStream.receive", "protected: called by the connected PipedOutputStream's write, which is "
                    + "reported at its site"),
            e("java.io.PipedOutputStream.flush", PIPE_MONITOR),
            e("java.io.PipedOutputStream.close", PIPE_MONITOR),
            e("java.io.PipedOutputStream.connect", PIPE_MONITOR),
            e("java.io.PipedReader.connect", PIPE_MONITOR),
            e("java.io.PipedReader.close", PIPE_MONITOR),
            e("java.io.PipedReader.ready", PIPE_MONITOR),
            e("java.io.PipedWriter.connect", PIPE_MONITOR),
            e("java.io.PipedWriter.flush", PIPE_MONITOR),
            e("java.io.PipedWriter.close", PIPE_MONITOR),
            e("java.io.InputStream", STREAMS),
            e("java.io.OutputStream", STREAMS),
            e("java.io.Reader", STREAMS),
            e("java.io.Writer", STREAMS),
            e("java.io.DataInput", STREAMS),
            e("java.io.DataOutput", STREAMS),
            e("java.io.ObjectInput", STREAMS),
            e("java.io.ObjectOutput", STREAMS),
            e("java.io.Externalizable", CALLBACK),
            e("java.io.FileFilter", CALLBACK),
            e("java.io.FilenameFilter", CALLBACK),
            e("java.io.ObjectOutputStream$PutField", STREAMS),
            e("java.io.RandomAccessFile", "file I/O: does not wait for a peer"),
            e("java.io.Console.format", "writes to the terminal: does not wait for a peer"),
            e("java.io.Console.printf", "writes to the terminal: does not wait for a peer"),
            e("java.io.Console.flush", "writes to the terminal: does not wait for a peer"),
            e("java.io.Console.reader", NON_BLOCKING + ": returns the terminal's Reader (see java.io.Reader)"),
            e("java.io.Console.writer", NON_BLOCKING + ": returns the terminal's Writer"),
            e("java.io.Closeable.close", CALLBACK + " (a JDK stream's close does not wait)"),
            e("java.io.Flushable.flush", CALLBACK + " (OutputStream.flush is a suspension point)"),
            // java.util
            e("java.util.Scanner", SCANNER),
            // java.net, java.nio.channels
            e("java.nio.channels.FileChannel", "file I/O: does not wait for a peer (FileChannel.lock is reported)"),
            e("java.nio.channels.AsynchronousFileChannel", NON_BLOCKING + ": returns a Future or calls a handler"),
            e("java.nio.channels.AsynchronousByteChannel", NON_BLOCKING + ": returns a Future or calls a handler"),
            e("java.nio.channels.AsynchronousServerSocketChannel", NON_BLOCKING + ": returns a Future or calls a handler"),
            e("java.nio.channels.SelectionKey", NON_BLOCKING),
            e("java.nio.channels.Selector.selectNow", NON_BLOCKING),
            e("java.nio.channels.Selector.selectedKeys", NON_BLOCKING),
            e("java.net.Socket.getInputStream", NON_BLOCKING + ": returns the stream, whose reads are reported (STREAMS)"),
            e("java.net.Socket.getOutputStream", NON_BLOCKING + ": returns the stream, whose writes are reported (STREAMS)"),
            e("java.net.SocketImpl", SOCKET_SPI),
            e("java.net.DatagramSocketImpl", SOCKET_SPI),
            e("java.net.DatagramSocket.connect", DATAGRAM_CONNECT),
            e("java.nio.channels.DatagramChannel.connect", DATAGRAM_CONNECT),
            e("java.net.NetworkInterface.getByName", "reads the machine's interface table, not a resolver: does not wait"),
            e("java.net.ProxySelector.select", CALLBACK + " (the JDK's default reads system properties)"),
            e("java.net.ContentHandler.getContent", CALLBACK + " (it reads the connection's stream, whose connect is "
                    + "reported at URLConnection.getContent/getInputStream)"));

    private static final class Entry {
        final String key;
        final String type;
        final String method;
        final String params;
        final String reason;
        final int since;

        Entry(String key, String reason, int since) {
            this.key = key;
            this.reason = reason;
            this.since = since;
            int paren = key.indexOf('(');
            String name = paren < 0 ? key : key.substring(0, paren);
            this.params = paren < 0 ? null : key.substring(paren);
            int dot = name.lastIndexOf('.');
            boolean isMethod = dot > 0 && Character.isLowerCase(name.charAt(dot + 1));
            this.type = isMethod ? name.substring(0, dot) : name;
            this.method = isMethod ? name.substring(dot + 1) : null;
        }

        boolean matches(Method m) {
            if (method != null && !method.equals(m.getName())) {
                return false;
            }
            if (params != null && !Type.getMethodDescriptor(m).startsWith(params)) {
                return false;
            }
            Class<?> declaring = m.getDeclaringClass();
            if (STREAMS.equals(reason) && dev.flow.internal.Polling.isPipe(declaring)) {
                return false; // a pipe waits for its other end, not for what it wraps: classified on its own
            }
            try {
                return Class.forName(type, false, null).isAssignableFrom(declaring);
            } catch (ClassNotFoundException e) {
                if (since > Runtime.version().feature()) {
                    return false;
                }
                throw new IllegalStateException("allow-list key " + key + " names no type of JDK "
                        + Runtime.version().feature(), e);
            }
        }
    }

    private JdkBlockingAllowList() {
    }

    private static Entry e(String key, String reason) {
        return new Entry(key, reason, 0);
    }

    private static Entry e(String key, String reason, int sinceJdk) {
        return new Entry(key, reason, sinceJdk);
    }

    /** The reason {@code m} needs neither suspension nor a report, or {@code null} if it is not listed. */
    static String reason(Method m) {
        for (Entry e : ENTRIES) {
            if (e.matches(m)) {
                return e.reason;
            }
        }
        return null;
    }

    /** The keys of the entries that match {@code m}. */
    static List<String> keysMatching(Method m) {
        return ENTRIES.stream().filter(e -> e.matches(m)).map(e -> e.key).collect(Collectors.toList());
    }

    /** The keys of the entries for JDK release {@code jdk}. */
    static List<String> keys(int jdk) {
        List<String> out = new ArrayList<>();
        for (Entry e : ENTRIES) {
            if (e.since <= jdk) {
                out.add(e.key);
            }
        }
        return out;
    }
}
