package dev.flow.bench;

import dev.flow.internal.Polling;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The receiver check that every stream read and write in loaded code makes before the read or write
 * ({@code Polling.piped(stream, site)}, called by {@code Awaits.inputRead/outputWrite(..., site)}): whether the
 * stream waits inside the JDK (a pipe, a JDK socket's, a process's, a URL connection's stream, {@code System.in}).
 * Measured on a plain thread, outside a flow, with four stream classes that do not wait (memory, buffered, data,
 * memory output) taken in turn, so the call site sees several receiver classes as loaded code does; one op = one
 * check. The baseline is the same jar with {@code Polling} of the commit before the per-class cache.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
@State(Scope.Thread)
public class StreamSiteCheckBenchmark {

    private final Object[] streams = {new ByteArrayInputStream(new byte[1]),
        new BufferedInputStream(new ByteArrayInputStream(new byte[1])), new DataInputStream(new ByteArrayInputStream(new byte[1])),
        new ByteArrayOutputStream()};

    /** Checks each of the four streams once. */
    @Benchmark
    @OperationsPerInvocation(4)
    public void pipedCheck() {
        for (Object s : streams) {
            Polling.piped(s, 0);
        }
    }
}
