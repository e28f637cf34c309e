package dev.flow.bench;

import dev.flow.FlowScheduler;
import dev.flow.Transport;
import dev.flow.bench.flows.EchoRounds;
import dev.flow.bench.load.LoadServer;
import dev.flow.loader.ContinuationClassLoader;
import dev.flow.mina.FlowConnector;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.mina.core.service.IoHandlerAdapter;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.filter.codec.ProtocolCodecFilter;
import org.apache.mina.filter.codec.textline.LineDelimiter;
import org.apache.mina.filter.codec.textline.TextLineCodecFactory;
import org.apache.mina.transport.vmpipe.VmPipeAcceptor;
import org.apache.mina.transport.vmpipe.VmPipeAddress;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One line round trip through a {@code MinaTransport} to a hand-written MINA echo server, per mode:
 * {@code sync} runs {@link EchoRounds} (loaded normally) on the JMH thread; {@code continuation}
 * runs the same class, loaded through the {@code ContinuationClassLoader}, as a flow on a one-worker
 * scheduler that the JMH thread joins (one submit and join per {@value #ROUNDS} round trips).
 * Transports: {@code vm} (MINA's VmPipe, which delivers a write to the peer on the writing thread, so
 * the echo is there before the read) and {@code tcp} on 127.0.0.1 (the read really waits). One op =
 * one round trip.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Thread)
public class TransportRoundTripBenchmark {

    /** Round trips per invocation. */
    public static final int ROUNDS = 1000;

    private static final java.util.concurrent.atomic.AtomicInteger VM_PORTS = new java.util.concurrent.atomic.AtomicInteger(9100);

    @Param({"sync", "continuation"})
    String mode;

    @Param({"vm", "tcp"})
    String transport;

    private VmPipeAcceptor vmServer;
    private LoadServer tcpServer;
    private FlowConnector connector;
    private Transport connection;
    private FlowScheduler scheduler;
    private ContinuationClassLoader loader;
    private Callable<?> syncRounds;

    @Setup
    public void setUp() throws Exception {
        connector = FlowConnector.builder().build();
        if (transport.equals("vm")) {
            vmServer = new VmPipeAcceptor();
            vmServer.getFilterChain().addLast("lines", new ProtocolCodecFilter(
                    new TextLineCodecFactory(StandardCharsets.UTF_8, LineDelimiter.UNIX, LineDelimiter.AUTO)));
            vmServer.setHandler(new IoHandlerAdapter() {
                @Override
                public void messageReceived(IoSession session, Object message) {
                    session.write(message);
                }
            });
            VmPipeAddress address = new VmPipeAddress(VM_PORTS.incrementAndGet());
            vmServer.bind(address);
            connection = connector.connect(address);
        } else {
            tcpServer = LoadServer.start(dev.flow.bench.load.Mode.MINA, 1, 1, 0);
            connection = connector.connect(new InetSocketAddress("127.0.0.1", tcpServer.port()));
        }
        if (mode.equals("continuation")) {
            loader = ContinuationClassLoader.builder().include("dev.flow.bench.flows").strict(true).build();
            scheduler = FlowScheduler.builder().workers(1).name("round-trip").build();
        } else {
            syncRounds = new EchoRounds(connection, ROUNDS);
        }
    }

    @TearDown
    public void tearDown() throws Exception {
        connection.close();
        connector.close();
        if (scheduler != null) {
            scheduler.close();
        }
        if (vmServer != null) {
            vmServer.unbind();
            vmServer.dispose(true);
        }
        if (tcpServer != null) {
            tcpServer.close();
        }
    }

    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    public Object roundTrip() throws Exception {
        if (syncRounds != null) {
            return syncRounds.call();
        }
        return scheduler.submit(loader.newInstance(Callable.class, "dev.flow.bench.flows.EchoRounds", connection, ROUNDS)).join();
    }
}
