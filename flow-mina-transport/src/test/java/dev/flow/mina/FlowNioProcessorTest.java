package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.Transport;
import dev.flow.mina.FlowNioProcessors.FlowNioProcessor;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.future.IoFuture;
import org.apache.mina.core.service.AbstractIoService;
import org.apache.mina.core.service.IoHandlerAdapter;
import org.apache.mina.core.service.IoProcessor;
import org.apache.mina.core.service.IoService;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.core.session.IoSessionInitializer;
import org.apache.mina.transport.socket.nio.NioSession;
import org.apache.mina.transport.socket.nio.NioSocketAcceptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link FlowNioProcessor} under a plain MINA acceptor on 127.0.0.1 with a blocking socket as the
 * peer: which writes wake the selector, how many {@code read} calls a read event costs, and that
 * bytes, ends of stream and sessions still get through; then the pools of {@link FlowServer} and
 * {@link FlowConnector}.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FlowNioProcessorTest {

    private static final int PEER_TIMEOUT_MS = 10_000;
    private static final int ROUNDS = 20;

    private final ExecutorService loopThreads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "processor-test");
        t.setDaemon(true);
        return t;
    });
    private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "processor-test-writer");
        t.setDaemon(true);
        return t;
    });
    /** Runs of the processor's loop started on {@link #loopThreads}. */
    private final java.util.concurrent.atomic.AtomicLong loopStarts = new java.util.concurrent.atomic.AtomicLong();
    /** A server's processor: it keeps its loop while it has no session. */
    private final FlowNioProcessor processor = new FlowNioProcessor(loop -> {
        loopStarts.incrementAndGet();
        loopThreads.execute(loop);
    }, true);
    private final Queue<String> events = new ConcurrentLinkedQueue<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private NioSocketAcceptor acceptor;

    /**
     * A session of the acceptor on an already connected channel, made as the acceptor makes the ones
     * it accepts (MINA keeps both steps to itself, hence the reflection).
     */
    private NioSession adopt(SocketChannel channel) throws ReflectiveOperationException {
        Constructor<?> session = Class.forName("org.apache.mina.transport.socket.nio.NioSocketSession")
                .getDeclaredConstructor(IoService.class, IoProcessor.class, SocketChannel.class);
        session.setAccessible(true);
        NioSession s = (NioSession) session.newInstance(acceptor, processor, channel);
        Method init = AbstractIoService.class.getDeclaredMethod("initSession", IoSession.class, IoFuture.class,
                IoSessionInitializer.class);
        init.setAccessible(true);
        init.invoke(acceptor, s, null, null);
        return s;
    }

    /** Hands every received buffer to {@code onMessage} on the processor thread; records the end of sessions. */
    private final class Handler extends IoHandlerAdapter {
        private final BiConsumer<IoSession, IoBuffer> onMessage;

        Handler(BiConsumer<IoSession, IoBuffer> onMessage) {
            this.onMessage = onMessage;
        }

        @Override
        public void messageReceived(IoSession session, Object message) {
            IoBuffer in = (IoBuffer) message;
            IoBuffer copy = IoBuffer.allocate(in.remaining());
            copy.put(in).flip();
            onMessage.accept(session, copy);
        }

        @Override
        public void inputClosed(IoSession session) {
            events.add("input closed");
            session.closeNow();
        }

        @Override
        public void exceptionCaught(IoSession session, Throwable cause) {
            events.add("exception " + cause);
        }
    }

    @AfterEach
    void closeEverything() throws Exception {
        if (acceptor != null) {
            acceptor.dispose(true);
        }

        processor.dispose();
        // After the processor: a channel it has taken as a session must be closed by it.
        for (AutoCloseable c : closeables) {
            c.close();
        }
        writer.shutdown();
        loopThreads.shutdown();
        assertTrue(writer.awaitTermination(5, TimeUnit.SECONDS), "the writer thread ends");
        assertTrue(loopThreads.awaitTermination(5, TimeUnit.SECONDS), "the processor's threads end");
    }

    private InetSocketAddress serve(BiConsumer<IoSession, IoBuffer> onMessage) throws Exception {
        acceptor = new NioSocketAcceptor(processor);
        acceptor.getSessionConfig().setTcpNoDelay(true);
        acceptor.setHandler(new Handler(onMessage));
        acceptor.bind(new InetSocketAddress(Pairs.LOOPBACK, 0));
        return (InetSocketAddress) acceptor.getLocalAddress();
    }

    private Socket peer(InetSocketAddress address) throws Exception {
        Socket s = new Socket(address.getAddress(), address.getPort());
        closeables.add(s);
        s.setTcpNoDelay(true);
        s.setSoTimeout(PEER_TIMEOUT_MS);
        return s;
    }

    /** Sends one byte and waits (at most the peer timeout) for it to come back. */
    private static void roundTrip(Socket peer, int b) throws Exception {
        peer.getOutputStream().write(b);
        assertEquals(b, peer.getInputStream().read(), "the echoed byte");
    }

    /**
     * Serves with {@code onMessage}, makes one round trip, then {@code rounds} more, and returns by how
     * much {@code counter} grew during those.
     */
    private long countDuringRoundTrips(BiConsumer<IoSession, IoBuffer> onMessage, int rounds, LongSupplier counter)
            throws Exception {
        Socket peer = peer(serve(onMessage));
        roundTrip(peer, 'w');
        // The acceptor thread adds the session, starts the processor's loop and then wakes its selector
        // (MINA's startupProcessor): that wake-up, the only one before these rounds, can come after the
        // first round trip if the acceptor thread is descheduled in between (seen once in CI, JDK 17).
        Conditions.await("the acceptor's wake-up of the processor it gave the session", () -> processor.selectorWakeups() >= 1);
        long before = counter.getAsLong();
        for (int i = 0; i < rounds; i++) {
            roundTrip(peer, 'a' + i);
        }
        return counter.getAsLong() - before;
    }

    @Test
    void aWriteFromTheProcessorThreadDoesNotWakeTheSelectorAndStillGoesOut() throws Exception {
        assertEquals(0, countDuringRoundTrips(IoSession::write, ROUNDS, processor::selectorWakeups),
                "selector wake-ups for " + ROUNDS + " writes issued on the processor thread");
    }

    @Test
    void aWriteFromAnotherThreadWakesTheSelectorBlockedInSelect() throws Exception {
        long wakeups = countDuringRoundTrips((session, buf) -> writer.execute(() -> {
            Conditions.await("the processor to block in select", this::processorInSelect);
            session.write(buf);
        }), 5, processor::selectorWakeups);
        assertTrue(wakeups >= 5, "selector wake-ups for 5 writes from another thread: " + wakeups);
    }

    private boolean processorInSelect() {
        for (var e : Thread.getAllStackTraces().entrySet()) {
            if (e.getKey().getName().startsWith("FlowNioProcessor")) {
                for (StackTraceElement f : e.getValue()) {
                    if (f.getClassName().equals(FlowNioProcessor.class.getName()) && f.getMethodName().equals("select")) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    @Test
    void aShortReadCostsOneReadCallPerReadEvent() throws Exception {
        assertEquals(ROUNDS, countDuringRoundTrips(IoSession::write, ROUNDS, processor::readCalls),
                "read calls for " + ROUNDS + " one-byte read events");
    }

    /**
     * Each echo is written by a task run after the next read ({@link FlowNioProcessor#afterNextRead}),
     * so each round trip has one selection that returns at once with nothing ready (the peer waits for
     * its echo): MINA's loop must not take it for a spinning selector, which checks every channel and,
     * the eleventh time in a row, moves them all to a new selector.
     */
    @Test
    void aSelectionThatReturnsAtOnceForTasksIsNotTakenForASpinningSelector() throws Exception {
        long spins = countDuringRoundTrips((session, buf) -> FlowNioProcessor.current().afterNextRead(() -> session.write(buf)),
                ROUNDS, processor::spinChecks);
        assertEquals(0, spins, "spinning-selector checks in " + ROUNDS + " round trips");
        assertEquals(0, processor.newSelectors(), "new selectors");
    }

    @Test
    void theLoopKeepsRunningWhenTheLastSessionEndsSoAResetConnectionStartsNoLoop() throws Exception {
        InetSocketAddress address = serve(IoSession::write);
        for (int i = 0; i < ROUNDS; i++) {
            Socket peer = peer(address);
            roundTrip(peer, 'r');
            peer.setSoLinger(true, 0);
            peer.close();
            Conditions.await("the reset session to end", () -> acceptor.getManagedSessionCount() == 0,
                    () -> acceptor.getManagedSessions().toString());
        }
        assertEquals(1, loopStarts.get(), "loop runs started on the executor for " + ROUNDS + " sessions, each "
                + "reset and ended before the next connected");
    }

    @Test
    void theEndOfStreamRightAfterDataIsStillDelivered() throws Exception {
        Socket peer = peer(serve((session, buf) -> {
            byte[] data = new byte[buf.remaining()];
            buf.get(data);
            events.add("data " + new String(data, StandardCharsets.US_ASCII));
        }));
        for (int i = 0; i < ROUNDS; i++) {
            events.clear();
            Socket p = i == 0 ? peer : peer((InetSocketAddress) acceptor.getLocalAddress());
            p.getOutputStream().write("bye".getBytes(StandardCharsets.US_ASCII));
            p.shutdownOutput();
            assertEquals(-1, p.getInputStream().read(), "the server closes the session after the end of stream");
            Conditions.await("the data, then the end of stream", () -> events.size() >= 2, events::toString);
            assertEquals(List.of("data bye", "input closed"), List.copyOf(events));
        }
    }

    @Test
    void aMebibyteComesBackByteExact() throws Exception {
        byte[] sent = new byte[1 << 20];
        new Random(42).nextBytes(sent);
        Socket peer = peer(serve(IoSession::write));
        Future<?> sending = CompletableFuture.runAsync(() -> {
            try {
                OutputStream out = peer.getOutputStream();
                for (int off = 0; off < sent.length; off += 10_000) {
                    out.write(sent, off, Math.min(10_000, sent.length - off));
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, writer);
        ByteArrayOutputStream received = new ByteArrayOutputStream(sent.length);
        InputStream in = peer.getInputStream();
        byte[] chunk = new byte[65536];
        while (received.size() < sent.length) {
            int n = in.read(chunk);
            if (n < 0) {
                break;
            }
            received.write(chunk, 0, n);
        }
        sending.get(PEER_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        assertArrayEquals(sent, received.toByteArray());
        assertTrue(events.isEmpty(), events::toString);
    }

    @Test
    void aSessionAddedOnTheProcessorThreadIsRegisteredWithoutWakingTheSelector() throws Exception {
        ServerSocketChannel side = ServerSocketChannel.open();
        closeables.add(side);
        side.bind(new InetSocketAddress(Pairs.LOOPBACK, 0));
        SocketChannel channel = SocketChannel.open(side.getLocalAddress());
        closeables.add(channel);
        SocketChannel second = side.accept();
        closeables.add(second);
        CompletableFuture<String> addedOn = new CompletableFuture<>();
        Socket first = peer(serve((session, buf) -> {
            if (buf.get(0) == 'n' && !addedOn.isDone()) {
                try {
                    processor.add(adopt(channel));
                    addedOn.complete(Thread.currentThread().getName());
                } catch (ReflectiveOperationException e) {
                    addedOn.completeExceptionally(e);
                }
            }
            session.write(buf);
        }));
        roundTrip(first, 'w');
        long before = processor.selectorWakeups();
        roundTrip(first, 'n');
        assertTrue(addedOn.getNow("").startsWith("FlowNioProcessor"), "added on " + addedOn.getNow("(not yet)"));
        Socket peer2 = second.socket();
        peer2.setSoTimeout(PEER_TIMEOUT_MS);
        roundTrip(peer2, 'x');
        assertEquals(2, acceptor.getManagedSessionCount(), "sessions of the acceptor, one added on the processor thread");
        assertEquals(0, processor.selectorWakeups() - before, "selector wake-ups on the processor thread");
    }

    /**
     * The loop thread flushes a session (MINA's flush first clears {@code OP_WRITE}) while another
     * thread resumes its reads (sets {@code OP_READ}, as a transport's reader does once it has drained
     * its input). MINA's {@code NioProcessor} makes each change a read of the key's interest set and a
     * write of the whole set: the loop thread, held here between the two, wrote back the set it had read
     * before the resume, so {@code OP_READ} was lost and the session never read again (a .ci/run's
     * thread-per-session WritePathStressTest client waited 20 s for an echo whose request was never read).
     */
    @Test
    void aReadResumedWhileTheLoopThreadFlushesTheSessionStaysResumed() throws Exception {
        roundTrip(peer(serve(IoSession::write)), 'w');
        ServerSocketChannel side = ServerSocketChannel.open();
        closeables.add(side);
        side.bind(new InetSocketAddress(Pairs.LOOPBACK, 0));
        SocketChannel channel = SocketChannel.open(side.getLocalAddress());
        closeables.add(channel);
        closeables.add(side.accept());
        NioSession session = adopt(channel);
        HeldKey key = new HeldKey(channel);
        Field keyField = NioSession.class.getDeclaredField("key");
        keyField.setAccessible(true);
        keyField.set(session, key);

        key.holdTheLoopThread();
        processor.flush(session);
        Conditions.await("the loop thread to read the interest set", key::loopThreadHeld);
        CompletableFuture<Thread> resumer = new CompletableFuture<>();
        Future<?> resumed = writer.submit(() -> {
            resumer.complete(Thread.currentThread());
            session.resumeRead();
        });
        Thread t = resumer.get(PEER_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        Conditions.await("the resume to end or to wait for the loop thread's change",
                () -> resumed.isDone() || t.getState() == Thread.State.BLOCKED, () -> t.getState().toString());
        key.release();
        resumed.get(PEER_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        Conditions.await("the loop thread to write the interest set", () -> key.loopThreadWrites() > 0);
        assertEquals(SelectionKey.OP_READ, key.interestOps() & SelectionKey.OP_READ,
                "OP_READ in the interest set after the resume: " + key.interestOps());
    }

    /**
     * A session's reads are suspended (its transport's input went above the high-water mark, or ended)
     * while a long write waits for the socket to drain: MINA's traffic update asks for {@code OP_WRITE}
     * only while writes are queued, and the one being written is no longer in the queue, so it cleared
     * {@code OP_WRITE} and the write never went on, though the peer read everything sent so far.
     */
    @Test
    void aWriteWaitingForTheSocketGoesOnWhenTheSessionsReadsAreSuspended() throws Exception {
        byte[] reply = new byte[4 << 20];
        new Random(7).nextBytes(reply);
        CompletableFuture<IoSession> writing = new CompletableFuture<>();
        CompletableFuture<IoFuture> written = new CompletableFuture<>();
        InetSocketAddress address = serve((session, buf) -> {
            if (!writing.isDone()) {
                written.complete(session.write(IoBuffer.wrap(reply)));
                writing.complete(session);
            }
        });
        Socket peer = new Socket();
        closeables.add(peer);
        peer.setReceiveBufferSize(64 * 1024);
        peer.connect(address);
        peer.setSoTimeout(PEER_TIMEOUT_MS);
        peer.getOutputStream().write('g');
        NioSession session = (NioSession) writing.get(PEER_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        // Stalled: the socket took nothing for 100 ms (the peer does not read) and OP_WRITE waits for room.
        long[] seen = {-1, 0};
        Conditions.await("the write to wait for the socket", () -> {
            long now = System.nanoTime();
            if (session.getWrittenBytes() != seen[0]) {
                seen[0] = session.getWrittenBytes();
                seen[1] = now;
            }
            return now - seen[1] >= 100_000_000L && !written.getNow(null).isDone()
                    && (interestOps(session) & SelectionKey.OP_WRITE) != 0;
        }, () -> "interest " + interestOps(session) + ", " + session.getWrittenBytes() + " bytes written");

        session.suspendRead();
        byte[] got = new byte[reply.length];
        new java.io.DataInputStream(peer.getInputStream()).readFully(got);
        assertArrayEquals(reply, got);
        assertTrue(written.get().await(PEER_TIMEOUT_MS), "the write completes");
    }

    /** {@code session}'s interest set, read through MINA's package-private accessor of its key. */
    private static int interestOps(NioSession session) {
        try {
            Method key = NioSession.class.getDeclaredMethod("getSelectionKey");
            key.setAccessible(true);
            return ((SelectionKey) key.invoke(session)).interestOps();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A selection key that is never registered: it holds its interest set, and holds the processor's
     * loop thread in its first read of the set once {@link #holdTheLoopThread()} is called.
     */
    private static final class HeldKey extends SelectionKey {
        private final SelectableChannel channel;
        private volatile int ops;
        private volatile boolean hold;
        private volatile boolean held;
        private final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        private final java.util.concurrent.atomic.AtomicInteger loopThreadWrites = new java.util.concurrent.atomic.AtomicInteger();

        HeldKey(SelectableChannel channel) {
            this.channel = channel;
        }

        void holdTheLoopThread() {
            hold = true;
        }

        boolean loopThreadHeld() {
            return held;
        }

        void release() {
            release.countDown();
        }

        int loopThreadWrites() {
            return loopThreadWrites.get();
        }

        private static boolean onLoopThread() {
            return Thread.currentThread().getName().startsWith("FlowNioProcessor");
        }

        @Override
        public int interestOps() {
            if (hold && onLoopThread()) {
                hold = false;
                int read = ops;
                held = true;
                try {
                    release.await(PEER_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return read;
            }
            return ops;
        }

        @Override
        public SelectionKey interestOps(int ops) {
            this.ops = ops;
            if (onLoopThread()) {
                loopThreadWrites.incrementAndGet();
            }
            return this;
        }

        @Override
        public SelectableChannel channel() {
            return channel;
        }

        @Override
        public Selector selector() {
            throw new UnsupportedOperationException("never registered");
        }

        @Override
        public boolean isValid() {
            return true;
        }

        @Override
        public void cancel() {
        }

        @Override
        public int readyOps() {
            return 0;
        }
    }

    @Test
    void flowServerAndFlowConnectorRunOnFlowNioProcessorsAndReleaseTheirThreads() throws Exception {
        FlowScheduler scheduler = FlowScheduler.builder().workers(1).policy(SuspendPolicy.never())
                .name("processor-test-worker").build();
        FlowConnector connector = FlowConnector.builder().ioProcessors(1).build();
        FlowServer server = FlowServer.builder().scheduler(scheduler).ioProcessors(1)
                .handler(t -> () -> {
                    for (String line; (line = t.readLine()) != null; ) {
                        t.writeLine(line);
                    }
                    return null;
                })
                .start(new InetSocketAddress(Pairs.LOOPBACK, 0));
        Transport client = connector.connect(server.localAddress());
        client.writeLine("hello");
        assertEquals("hello", client.readLine());
        assertEquals(2, processorThreads("FlowNioProcessor").size(), "processor threads, one per pool");
        Teardown.closeAll(connector, List.of(server), scheduler);
        Conditions.await("the processor threads to end", () -> processorThreads("FlowNioProcessor").isEmpty(),
                () -> processorThreads("FlowNioProcessor").toString());
    }

    @Test
    void thePropertyPicksMinasOwnProcessorOrFailsNamingTheValue() throws Exception {
        String old = System.getProperty(FlowNioProcessors.PROCESSOR_PROPERTY);
        try {
            System.setProperty(FlowNioProcessors.PROCESSOR_PROPERTY, "epoll");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FlowNioProcessors.pool(1, null));
            assertEquals("flow.mina.processor: epoll (expected: flow or mina)", e.getMessage());
            System.setProperty(FlowNioProcessors.PROCESSOR_PROPERTY, "mina");
            IoProcessor<NioSession> pool = FlowNioProcessors.pool(1, null);
            NioSocketAcceptor stock = new NioSocketAcceptor(pool);
            try {
                stock.setHandler(new Handler(IoSession::write));
                stock.bind(new InetSocketAddress(Pairs.LOOPBACK, 0));
                Socket peer = peer((InetSocketAddress) stock.getLocalAddress());
                roundTrip(peer, 'm');
                assertEquals(1, processorThreads("NioProcessor").size(), "MINA's processor threads");
                assertEquals(List.of(), processorThreads("FlowNioProcessor"));
            } finally {
                stock.dispose(true);
                pool.dispose();
            }
        } finally {
            if (old == null) {
                System.clearProperty(FlowNioProcessors.PROCESSOR_PROPERTY);
            } else {
                System.setProperty(FlowNioProcessors.PROCESSOR_PROPERTY, old);
            }
        }
        assertThrows(IllegalArgumentException.class, () -> FlowNioProcessors.pool(0, null), "size: 0 (expected: > 0)");
    }

    private static List<String> processorThreads(String prefix) {
        List<String> names = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && t.getName().startsWith(prefix)) {
                names.add(t.getName());
            }
        }
        return names;
    }
}
