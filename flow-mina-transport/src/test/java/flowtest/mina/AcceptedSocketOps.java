package flowtest.mina;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.function.Consumer;

/**
 * A thread-per-connection handler that reports what it sees of its accepted {@link Socket}: its state and
 * options as accepted, a read that times out, half-closes and use after close. The transcript goes to {@code
 * sink} when the handler ends, and must be the same for the JDK's {@code ServerSocket.accept()} and a {@code
 * FlowServer}'s socket, loaded normally or through the loader. Its client sends {@code hello}, waits for {@code
 * ok}, sends {@code more}, reads {@code bye} and then end of stream.
 */
public class AcceptedSocketOps implements Runnable {
    private final Socket s;
    private final Consumer<String> sink;

    public AcceptedSocketOps(Socket socket, Consumer<String> sink) {
        this.s = socket;
        this.sink = sink;
    }

    @Override
    public void run() {
        StringBuilder log = new StringBuilder();
        try {
            log.append(s.isConnected()).append(' ').append(s.isBound()).append(' ').append(s.isClosed()).append(' ')
                    .append(s.getLocalPort() > 0).append(' ').append(s.getPort() > 0).append(' ')
                    .append(s.getInetAddress().isLoopbackAddress()).append(' ')
                    .append(s.getLocalAddress().isLoopbackAddress()).append(' ').append(s.getSoTimeout()).append(' ')
                    .append(s.getTcpNoDelay()).append(' ').append(s.getKeepAlive()).append(' ')
                    .append(s.getSoLinger()).append(' ').append(s.getOOBInline()).append(' ')
                    .append(s.toString().replace(String.valueOf(s.getLocalPort()), "L")
                            .replace(String.valueOf(s.getPort()), "P")).append(' ');
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            log.append(SocketOps.readLine(in)).append(' ');
            s.setSoTimeout(200);
            try {
                log.append(in.read());
            } catch (SocketTimeoutException e) {
                log.append("timed out: ").append(e.getMessage());
            }
            s.setSoTimeout(0);
            SocketOps.writeLine(out, "ok");
            log.append(' ').append(SocketOps.readLine(in)).append(' ');
            s.shutdownInput();
            log.append(s.isInputShutdown()).append(' ').append(in.read()).append(' ').append(in.available()).append(' ');
            SocketOps.writeLine(out, "bye");
            s.shutdownOutput();
            log.append(s.isOutputShutdown()).append(' ');
            s.close();
            log.append(s.isClosed()).append(' ').append(s.isConnected()).append(' ').append(s.getLocalPort() > 0)
                    .append(' ').append(s.getRemoteSocketAddress() != null).append(' ');
            log.append(SocketOps.message(s::getInputStream)).append(' ').append(SocketOps.message(in::read))
                    .append(' ').append(SocketOps.message(in::available)).append(' ')
                    .append(SocketOps.message(() -> out.write(1))).append(' ')
                    .append(SocketOps.message(() -> s.setSoTimeout(1)));
        } catch (IOException | RuntimeException e) {
            log.append("failed: ").append(e);
        } finally {
            sink.accept(log.toString());
        }
    }
}
