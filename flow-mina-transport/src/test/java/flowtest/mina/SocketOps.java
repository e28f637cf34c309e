package flowtest.mina;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.charset.StandardCharsets;
import java.util.Scanner;
import java.util.concurrent.Callable;
import javax.net.SocketFactory;

/**
 * Plain blocking {@link Socket} code for the socket contract: each scenario returns a transcript of what it
 * saw, which must be the same loaded normally and loaded through the loader. The peer answers by the first
 * line a connection sends (see {@code FlowSocketTest}).
 */
public class SocketOps implements Callable<String> {
    private final String op;
    private final SocketFactory factory;
    private final InetSocketAddress address;

    public SocketOps(String op, SocketFactory factory, InetSocketAddress address) {
        this.op = op;
        this.factory = factory;
        this.address = address;
    }

    @Override
    public String call() throws Exception {
        StringBuilder log = new StringBuilder();
        switch (op) {
            case "echo": {
                Socket s = factory.createSocket();
                log.append(s.isConnected()).append(' ').append(s.isBound()).append(' ');
                s.connect(address, 5000);
                try (s) {
                    log.append(s.isConnected()).append(' ').append(s.getPort() == address.getPort())
                            .append(' ').append(s.getInetAddress().equals(address.getAddress()))
                            .append(' ').append(s.getLocalPort() > 0).append(' ').append(s.getTcpNoDelay()).append(' ');
                    writeLine(s.getOutputStream(), "echo");
                    for (int i = 0; i < 3; i++) {
                        writeLine(s.getOutputStream(), "line " + i);
                        log.append(readLine(s.getInputStream())).append(';');
                    }
                }
                log.append(' ').append(s.isClosed());
                return log.toString();
            }
            case "createSocket": {
                try (Socket s = factory.createSocket(address.getHostString(), address.getPort())) {
                    writeLine(s.getOutputStream(), "echo");
                    writeLine(s.getOutputStream(), "hi");
                    return s.isConnected() + " " + readLine(s.getInputStream());
                }
            }
            case "soTimeout": {
                try (Socket s = factory.createSocket(address.getAddress(), address.getPort())) {
                    s.setSoTimeout(200);
                    log.append(s.getSoTimeout()).append(' ');
                    writeLine(s.getOutputStream(), "late");
                    InputStream in = s.getInputStream();
                    try {
                        in.read();
                        log.append("no timeout");
                    } catch (SocketTimeoutException e) {
                        log.append("timed out: ").append(e.getMessage()).append(';');
                    }
                    s.setSoTimeout(0);
                    writeLine(s.getOutputStream(), "go");
                    log.append(readLine(in));
                }
                return log.toString();
            }
            case "shutdownOutput": {
                try (Socket s = factory.createSocket(address.getAddress(), address.getPort())) {
                    OutputStream out = s.getOutputStream();
                    writeLine(out, "count");
                    out.write("abcde".getBytes(StandardCharsets.US_ASCII));
                    s.shutdownOutput();
                    log.append(s.isOutputShutdown()).append(' ').append(readLine(s.getInputStream())).append(' ')
                            .append(s.getInputStream().read()).append(' ');
                    log.append(message(() -> out.write(1))).append(' ');
                    log.append(message(s::shutdownOutput));
                }
                return log.toString();
            }
            case "shutdownOutputWithInputBuffered": {
                try (Socket s = factory.createSocket(address.getAddress(), address.getPort())) {
                    OutputStream out = s.getOutputStream();
                    writeLine(out, "greet");
                    out.flush();
                    InputStream in = s.getInputStream();
                    for (int i = 0; i < 2_000 && in.available() == 0; i++) {
                        Thread.sleep(5);
                    }
                    log.append(in.available() > 0).append(' ');
                    out.write("abcde".getBytes(StandardCharsets.US_ASCII));
                    s.shutdownOutput();
                    log.append(readLine(in)).append(' ').append(readLine(in));
                }
                return log.toString();
            }
            case "shutdownInput": {
                try (Socket s = factory.createSocket(address.getAddress(), address.getPort())) {
                    InputStream in = s.getInputStream();
                    writeLine(s.getOutputStream(), "echo");
                    writeLine(s.getOutputStream(), "x");
                    log.append(readLine(in)).append(' ');
                    s.shutdownInput();
                    log.append(s.isInputShutdown()).append(' ').append(in.read()).append(' ')
                            .append(in.read(new byte[4], 0, 4)).append(' ');
                    log.append(message(s::getInputStream)).append(' ');
                    writeLine(s.getOutputStream(), "still writing");
                }
                return log.toString();
            }
            case "options": {
                Socket s = factory.createSocket();
                s.setTcpNoDelay(false);
                s.setKeepAlive(true);
                s.setSoLinger(true, 3);
                s.setReceiveBufferSize(32768);
                s.connect(address);
                try (s) {
                    log.append(s.getTcpNoDelay()).append(' ').append(s.getKeepAlive()).append(' ')
                            .append(s.getSoLinger()).append(' ').append(s.getReceiveBufferSize() > 0).append(' ');
                    s.setTcpNoDelay(true);
                    s.setOption(StandardSocketOptions.SO_KEEPALIVE, false);
                    s.setSoLinger(false, 0);
                    s.setSendBufferSize(65536);
                    log.append(s.getTcpNoDelay()).append(' ').append(s.getKeepAlive()).append(' ')
                            .append(s.getSoLinger()).append(' ').append(s.getSendBufferSize() > 0).append(' ');
                    log.append(message(() -> s.setOOBInline(true))).append(' ');
                    log.append(message(() -> s.sendUrgentData(1))).append(' ');
                    log.append(message(() -> s.setSoTimeout(-1))).append(' ');
                    writeLine(s.getOutputStream(), "echo");
                    writeLine(s.getOutputStream(), "ok");
                    log.append(readLine(s.getInputStream()));
                }
                return log.toString();
            }
            case "closed": {
                Socket s = factory.createSocket(address.getAddress(), address.getPort());
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                s.close();
                s.close();
                log.append(s.isClosed()).append(' ').append(s.isConnected()).append(' ');
                log.append(message(s::getInputStream)).append(' ');
                log.append(message(s::getOutputStream)).append(' ');
                log.append(message(() -> s.setSoTimeout(1))).append(' ');
                log.append(message(() -> s.setTcpNoDelay(true))).append(' ');
                log.append(message(() -> s.connect(address))).append(' ');
                log.append(message(in::read)).append(' ');
                log.append(message(() -> out.write(1)));
                return log.toString();
            }
            case "scanner": {
                try (Socket s = factory.createSocket(address.getAddress(), address.getPort())) {
                    writeLine(s.getOutputStream(), "echo");
                    writeLine(s.getOutputStream(), "hi");
                    Scanner in = new Scanner(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
                    return s.isConnected() + " " + in.nextLine();
                }
            }
            case "refused": {
                Socket s = factory.createSocket();
                log.append(message(() -> s.connect(address, 5000))).append(' ').append(s.isClosed());
                return log.toString();
            }
            case "connectTimeout": {
                Socket s = factory.createSocket();
                log.append(message(() -> s.connect(address, 200))).append(' ').append(s.isClosed());
                return log.toString();
            }
            case "unconnected": {
                Socket s = factory.createSocket();
                log.append(s.getInetAddress()).append(' ').append(s.getPort()).append(' ').append(s.getLocalPort())
                        .append(' ').append(s.getRemoteSocketAddress()).append(' ').append(s.getLocalSocketAddress())
                        .append(' ').append(s.isBound()).append(' ').append(s.isInputShutdown()).append(' ')
                        .append(s.isOutputShutdown()).append(' ').append(s.getSoTimeout()).append(' ')
                        .append(s.getSoLinger()).append(' ');
                log.append(message(s::getInputStream)).append(' ');
                log.append(message(s::getOutputStream)).append(' ');
                log.append(message(s::shutdownInput)).append(' ');
                log.append(message(s::shutdownOutput)).append(' ');
                log.append(message(() -> s.connect(null))).append(' ');
                log.append(message(() -> s.connect(address, -1))).append(' ');
                // Whether the failed connect closed the socket depends on the JDK (see FlowSocketTest).
                log.append(message(() -> s.connect(InetSocketAddress.createUnresolved("flow.invalid", 80)))).append(' ');
                s.close();
                log.append(message(() -> s.connect(address))).append(' ').append(s.toString().startsWith("Socket["));
                return log.toString();
            }
            case "arguments": {
                try (Socket s = factory.createSocket(address.getAddress(), address.getPort())) {
                    log.append(message(() -> s.setSendBufferSize(0))).append(' ');
                    log.append(message(() -> s.setReceiveBufferSize(0))).append(' ');
                    log.append(message(() -> s.setSoLinger(true, -1))).append(' ');
                    log.append(message(() -> s.setSoLinger(true, 70000))).append(' ').append(s.getSoLinger()).append(' ');
                    log.append(message(() -> s.setTrafficClass(256))).append(' ');
                    log.append(message(() -> s.setOption(null, 1))).append(' ');
                    // The JDK's message is "already connected" in 17, "Already connected" in 25.
                    log.append(message(() -> s.connect(address)).toLowerCase(java.util.Locale.ROOT)).append(' ');
                    log.append(message(() -> s.bind(null))).append(' ');
                    log.append(s.toString().replace(String.valueOf(s.getLocalPort()), "L")
                            .replace(String.valueOf(address.getPort()), "P")).append(' ');
                    log.append(s.getRemoteSocketAddress().equals(address)).append(' ');
                    InputStream in = s.getInputStream();
                    s.shutdownInput();
                    log.append(message(s::shutdownInput)).append(' ');
                    log.append(message(in::available)).append(' ');
                    s.close();
                    log.append(message(in::available)).append(' ').append(s.getRemoteSocketAddress().equals(address))
                            .append(' ').append(s.getLocalPort() > 0).append(' ').append(s.isBound()).append(' ')
                            .append(s.toString().replace(String.valueOf(s.getLocalPort()), "L")
                            .replace(String.valueOf(address.getPort()), "P"));
                }
                return log.toString();
            }
            case "streams": {
                try (Socket s = factory.createSocket(address.getAddress(), address.getPort())) {
                    InputStream in = s.getInputStream();
                    OutputStream out = s.getOutputStream();
                    log.append(message(() -> in.read(new byte[4], 3, 5))).append(' ');
                    log.append(thrown(() -> in.read(null, 0, 1))).append(' '); // the JDK's message names its parameter
                    log.append(message(() -> out.write(new byte[4], 3, 5))).append(' ');
                    log.append(thrown(() -> out.write(null, 0, 1))).append(' ');
                    log.append(in.read(new byte[4], 0, 0)).append(' ').append(in.skip(-1)).append(' ').append(in.skip(0))
                            .append(' ');
                    log.append(in.markSupported()).append(' ').append(message(in::reset)).append(' ');
                    log.append(s.getInputStream() == in).append(' ').append(s.getOutputStream() == out).append(' ');
                    writeLine(out, "echo");
                    writeLine(out, "abc");
                    byte[] b = new byte[2];
                    log.append(in.read(b)).append(new String(b, StandardCharsets.US_ASCII)).append(' ');
                    log.append(in.skip(1)).append(' ').append(in.read()).append(' ');
                    // A read of a socket another thread closes: the transcript is the same whether the close comes
                    // before the read or while it waits; the delay makes the second the usual case.
                    Thread closer = new Thread(() -> {
                        try {
                            Thread.sleep(200);
                            s.close();
                        } catch (Exception e) {
                            // the transcript shows the reader's side
                        }
                    });
                    closer.start();
                    log.append(message(in::read)).append(' ');
                    closer.join();
                    log.append(s.isClosed()).append(' ').append(message(() -> in.read())).append(' ')
                            .append(message(in::close)).append(' ').append(message(out::close)).append(' ')
                            .append(message(out::flush));
                }
                return log.toString();
            }
            case "reset": {
                try (Socket s = factory.createSocket(address.getAddress(), address.getPort())) {
                    InputStream in = s.getInputStream();
                    OutputStream out = s.getOutputStream();
                    writeLine(out, "reset");
                    log.append(message(in::read)).append(' ').append(message(in::read)).append(' ')
                            .append(message(in::available)).append(' ').append(message(out::flush)).append(' ')
                            .append(message(() -> out.write(1))).append(' ')
                            .append(message(() -> out.write(1))).append(' ').append(s.isClosed()).append(' ')
                            .append(s.isConnected()).append(' ').append(message(s::shutdownOutput));
                }
                return log.toString();
            }
            case "local": {
                InetAddress loopback = address.getAddress();
                try (Socket a = factory.createSocket(address.getHostString(), address.getPort(), loopback, 0);
                        Socket b = factory.createSocket(loopback, address.getPort(), loopback, 0)) {
                    for (Socket s : new Socket[] {a, b}) {
                        log.append(s.getLocalAddress().equals(loopback)).append(' ').append(s.getLocalPort() > 0)
                                .append(' ');
                        writeLine(s.getOutputStream(), "echo");
                        writeLine(s.getOutputStream(), "from " + (s == a ? "a" : "b"));
                        log.append(readLine(s.getInputStream())).append(' ');
                    }
                }
                log.append(message(() -> factory.createSocket((InetAddress) null, address.getPort()))).append(' ');
                log.append(message(() -> factory.createSocket(loopback, 70000))).append(' ');
                log.append(message(() -> factory.createSocket("flow.invalid", address.getPort())));
                return log.toString();
            }
            default:
                throw new IllegalArgumentException("op: " + op);
        }
    }

    static void writeLine(OutputStream out, String line) throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    static String readLine(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                return b.length() == 0 ? null : b.toString();
            }
            b.append((char) c);
        }
        return b.toString();
    }

    /** What {@code call} throws: its type and message, or "none". */
    static String message(IoCall call) {
        try {
            call.run();
            return "none";
        } catch (Exception e) {
            return "[" + e.getClass().getSimpleName() + ": " + e.getMessage() + "]";
        }
    }

    /** The type of what {@code call} throws, or "none". */
    static String thrown(IoCall call) {
        try {
            call.run();
            return "none";
        } catch (Exception e) {
            return e.getClass().getSimpleName();
        }
    }

    /** A call that may throw. */
    public interface IoCall {
        void run() throws Exception;
    }
}
