import dev.flow.Transport;
import dev.flow.mina.FlowConnector;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * Process CPU and wall time per loopback connect through FlowConnector (connect, then close), the client
 * on one plain thread, a plain accepting thread in the same JVM. Run with a bench jar on the class path:
 * java -cp benchmarks.jar ConnectCost.java [connects per round] [rounds]; prints one line per round after
 * warm-up rounds of the same size. The backlog is large so that no SYN is dropped while the acceptor
 * thread is descheduled (a dropped SYN costs its connect a 1 s retransmission).
 */
public final class ConnectCost {
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try (ServerSocket server = new ServerSocket(0, 4096, InetAddress.getByName("127.0.0.1"));
                FlowConnector connector = FlowConnector.builder().daemonThreads(true).ioProcessors(1).build()) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        Socket s = server.accept();
                        s.close();
                    }
                } catch (Exception closed) {
                    // server closed: done
                }
            }, "acceptor");
            acceptor.setDaemon(true);
            acceptor.start();
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.getLocalPort());
            for (int r = -3; r < rounds; r++) {
                long cpu0 = os.getProcessCpuTime();
                long t0 = System.nanoTime();
                int slow = 0;
                for (int i = 0; i < n; i++) {
                    long c0 = System.nanoTime();
                    Transport t = connector.connect(address);
                    if (System.nanoTime() - c0 > 100_000_000L) {
                        slow++;
                    }
                    t.close();
                }
                long wall = System.nanoTime() - t0;
                long cpu = os.getProcessCpuTime() - cpu0;
                System.out.printf("%s %d: %d connects, CPU %.1f us/connect, wall %.1f us/connect, over 100 ms %d,"
                        + " connector thread %s%n", r < 0 ? "warm-up" : "round", r, n, cpu / 1e3 / n, wall / 1e3 / n, slow,
                        Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                                .anyMatch(name -> name.matches("flow-connector-daemon-\\d+|\\w+SocketConnector-\\d+")));
            }
        }
    }
}
