package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.filterchain.IoFilterAdapter;
import org.apache.mina.core.session.IoSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * #14: an {@link OutOfMemoryError} on a server's I/O thread or setup thread fails the session it was
 * serving, is counted, and neither stops the thread nor makes {@code close()} hang.
 */
class MemoryIoThreadOutOfMemoryTest {

    /** Throws an {@link OutOfMemoryError} on the I/O thread for every message that contains "boom". */
    private static final class Boom extends IoFilterAdapter {
        @Override
        public void messageReceived(NextFilter next, IoSession session, Object message) {
            if (new String(((IoBuffer) message).array(), StandardCharsets.US_ASCII).contains("boom")) {
                throw new OutOfMemoryError("injected on " + Thread.currentThread().getName());
            }
            next.messageReceived(session, message);
        }
    }

    @ParameterizedTest
    @EnumSource(Dispatch.class)
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void anOutOfMemoryErrorOnAnIoThreadFailsItsSessionOnlyAndTheServerStillCloses(Dispatch dispatch) throws Exception {
        FlowScheduler scheduler = dispatch == Dispatch.IO_THREADS
                ? FlowScheduler.builder().workers(1).policy(SuspendPolicy.never()).name("oom-io").build()
                : null;
        FlowServer.Builder b = FlowServer.builder().ioProcessors(1).filter("boom", new Boom()).onFailure((t, e) -> { })
                .handler(t -> () -> {
                    for (String line; (line = t.readLine()) != null; ) {
                        t.writeLine(line);
                    }
                    return null;
                });
        if (scheduler != null) {
            b.scheduler(scheduler).dispatch(dispatch);
        } else {
            b.threadPerSession();
        }
        FlowServer server = b.start(new InetSocketAddress("127.0.0.1", 0));
        try {
            InetSocketAddress address = (InetSocketAddress) server.localAddress();
            try (Socket victim = new Socket(address.getAddress(), address.getPort())) {
                victim.setSoTimeout(10_000);
                victim.getOutputStream().write("boom\n".getBytes(StandardCharsets.US_ASCII));
                assertNull(reader(victim).readLine(), "the session whose input was lost is closed");
            }
            for (int i = 0; i < 3; i++) {
                assertEquals("hello " + i, echo(address, "hello " + i), "a later session on the same I/O thread");
            }
            assertTrue(server.outOfMemoryErrors() >= 1, "counted: " + server.outOfMemoryErrors());
        } finally {
            server.close();
            if (scheduler != null) {
                scheduler.close();
            }
        }
        assertTrue(server.isClosed());
    }

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void anOutOfMemoryErrorWhileTheSetupThreadCreatesAHandlerFailsThatSessionOnlyAndIsCounted() throws Exception {
        FlowScheduler scheduler = FlowScheduler.builder().workers(1).policy(SuspendPolicy.never()).name("oom-setup").build();
        AtomicInteger created = new AtomicInteger();
        FlowServer server = FlowServer.builder().scheduler(scheduler).onFailure((t, e) -> { })
                .handler(t -> {
                    if (created.incrementAndGet() == 1) {
                        throw new OutOfMemoryError("injected on " + Thread.currentThread().getName());
                    }
                    return () -> {
                        t.writeLine(t.readLine());
                        return null;
                    };
                })
                .start(new InetSocketAddress("127.0.0.1", 0));
        try {
            InetSocketAddress address = (InetSocketAddress) server.localAddress();
            try (Socket victim = new Socket(address.getAddress(), address.getPort())) {
                victim.setSoTimeout(10_000);
                assertNull(reader(victim).readLine(), "the session without a handler is closed");
            }
            assertEquals("hello", echo(address, "hello"), "the next session is served");
            assertEquals(1, server.outOfMemoryErrors());
            assertEquals(1, server.stats().failed(), server.stats().toString());
        } finally {
            server.close();
            scheduler.close();
        }
    }

    private static String echo(InetSocketAddress address, String line) throws IOException {
        try (Socket s = new Socket(address.getAddress(), address.getPort())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write((line + "\n").getBytes(StandardCharsets.US_ASCII));
            return reader(s).readLine();
        }
    }

    private static BufferedReader reader(Socket s) throws IOException {
        return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
    }
}
