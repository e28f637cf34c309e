package dev.flow.mina;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A child JVM's main ({@code PORT COUNT}): opens {@code COUNT} connections to {@code PORT} on the
 * loopback address, writes one line on each and prints {@code connected COUNT}; then reads each
 * line's echo (30 s at most each) and prints {@code echoed N}, the number of lines echoed intact.
 */
final class ConnectBurstProcess {

    private ConnectBurstProcess() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int count = Integer.parseInt(args[1]);
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                Socket s = new Socket();
                sockets.add(s);
                s.connect(new InetSocketAddress(Pairs.LOOPBACK, port), 10_000);
                s.setSoTimeout(30_000);
                OutputStream out = s.getOutputStream();
                out.write(("line " + i + "\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
            System.out.println("connected " + sockets.size());
            int echoed = 0;
            for (int i = 0; i < count; i++) {
                BufferedReader in = new BufferedReader(new InputStreamReader(sockets.get(i).getInputStream(),
                        StandardCharsets.US_ASCII));
                if (("line " + i).equals(in.readLine())) {
                    echoed++;
                }
            }
            System.out.println("echoed " + echoed);
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
        }
    }
}
