package dev.flow.mina;

import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A child JVM's main ({@code PORT COUNT}): opens {@code COUNT} connections to {@code PORT} on the
 * loopback address one after another, resets each at once ({@code SO_LINGER 0}) and prints {@code reset
 * COUNT}.
 */
final class ResetBurstProcess {

    private ResetBurstProcess() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int count = Integer.parseInt(args[1]);
        for (int i = 0; i < count; i++) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(Pairs.LOOPBACK, port), 10_000);
                s.setSoLinger(true, 0);
            }
        }
        System.out.println("reset " + count);
    }
}
