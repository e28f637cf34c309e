package dev.flow.mina;

import dev.flow.FlowScheduler;
import dev.flow.loader.ContinuationClassLoader;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Run by {@link NoLoggingProviderTest} in a JVM without any SLF4J provider: serves one session in
 * continuation mode and one whose handler fails in sync mode, then prints {@code done}.
 */
public final class NoLoggingProviderMain {

    private NoLoggingProviderMain() {
    }

    public static void main(String[] args) throws Exception {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.mina").build();
        try (FlowScheduler scheduler = FlowScheduler.builder().workers(1).build();
                FlowServer flows = FlowServer.builder().scheduler(scheduler)
                        .handler(loader, "flowtest.mina.OutcomeRecorder")
                        .start(new InetSocketAddress("127.0.0.1", 0));
                FlowServer threads = FlowServer.builder().threadPerSession()
                        .handler(t -> () -> {
                            throw new IllegalStateException("boom from the handler");
                        })
                        .start(new InetSocketAddress("127.0.0.1", 0))) {
            System.out.println(converse(flows, "QUIT\r\n").trim());
            converse(threads, "");
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (threads.stats().failed() < 1 && System.nanoTime() - deadline < 0) {
                Thread.sleep(5);
            }
        }
        System.out.println("done");
    }

    private static String converse(FlowServer server, String text) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(server.localAddress(), 5_000);
            s.setSoTimeout(10_000);
            s.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }
}
