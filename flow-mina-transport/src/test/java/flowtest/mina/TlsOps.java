package flowtest.mina;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * Plain JDK code that layers TLS over its own socket, as libraries do: {@code new Socket(host, port)}, then {@code
 * context.getSocketFactory().createSocket(socket, host, port, true)}, then one of the ways to start the handshake
 * ({@code op}), a line exchange through JDK readers and writers, and what the socket reports. Returns a transcript.
 * The peer sends {@code hi}, then answers each line in upper case, and {@code bye} to {@code bye}.
 */
public class TlsOps implements Callable<String> {

    private final String op;
    private final SSLContext context;
    private final InetSocketAddress server;

    public TlsOps(String op, SSLContext context, InetSocketAddress server) {
        this.op = op;
        this.context = context;
        this.server = server;
    }

    @Override
    public String call() throws Exception {
        List<String> out = new ArrayList<>();
        Socket plain = new Socket(server.getAddress(), server.getPort());
        SSLSocketFactory factory = context.getSocketFactory();
        SSLSocket s = (SSLSocket) factory.createSocket(plain, "localhost", server.getPort(), true);
        out.add("before: " + s.isConnected() + " " + s.getApplicationProtocol() + " " + s.getUseClientMode());
        try {
            switch (op) {
                case "explicit":
                    s.setEnabledProtocols(new String[] {"TLSv1.2"});
                    s.startHandshake();
                    out.add("handshake " + s.getSession().getProtocol());
                    break;
                case "read-first":
                    break;
                case "write-first":
                    exchange(s, "first", out);
                    break;
                case "session-first":
                    out.add("session " + s.getSession().getProtocol() + " " + s.getSession().getPeerHost());
                    break;
                case "alpn":
                    SSLParameters p = s.getSSLParameters();
                    p.setApplicationProtocols(new String[] {"flow/1"});
                    s.setSSLParameters(p);
                    s.startHandshake();
                    out.add("alpn " + s.getApplicationProtocol());
                    break;
                case "untrusted":
                    out.add("session " + s.getSession().getCipherSuite());
                    step(out, "handshake", () -> {
                        s.startHandshake();
                        return "done";
                    });
                    step(out, "read", () -> s.getInputStream().read());
                    out.add("closed " + s.isClosed());
                    s.close();
                    return String.join("; ", out);
                case "untrusted-handshake":
                case "untrusted-read":
                case "untrusted-write":
                    if (op.endsWith("handshake")) {
                        step(out, "handshake", () -> {
                            s.startHandshake();
                            return "done";
                        });
                    } else if (op.endsWith("read")) {
                        step(out, "read", () -> s.getInputStream().read());
                    } else {
                        step(out, "write", () -> {
                            exchange(s, "first", out);
                            return "done";
                        });
                    }
                    step(out, "then read", () -> s.getInputStream().read());
                    out.add("closed " + s.isClosed() + " " + s.getSession().getCipherSuite());
                    s.close();
                    return String.join("; ", out);
                case "silent":
                    s.setSoTimeout(300);
                    step(out, "handshake", () -> {
                        s.startHandshake();
                        return "done";
                    });
                    out.add("closed " + s.isClosed());
                    out.add("session " + s.getSession().getCipherSuite());
                    s.close();
                    return String.join("; ", out);
                default:
                    throw new IllegalArgumentException("op: " + op);
            }
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            out.add("greeting " + in.readLine());
            exchange(s, "hello", out);
            out.add("reply " + in.readLine());
            exchange(s, "bye", out);
            out.add("reply " + in.readLine());
            out.add("end " + in.readLine());
            out.add("tls " + s.getSession().getCipherSuite().startsWith("TLS_") + " " + s.getApplicationProtocol());
        } finally {
            s.close();
        }
        out.add("closed " + s.isClosed() + " " + plain.isClosed());
        return String.join("; ", out);
    }

    private static void exchange(SSLSocket s, String line, List<String> out) throws IOException {
        Writer w = new OutputStreamWriter(s.getOutputStream(), StandardCharsets.UTF_8);
        w.write(line + "\n");
        w.flush();
        out.add("sent " + line);
    }

    private interface Step {
        Object run() throws Exception;
    }

    private static void step(List<String> out, String name, Step step) {
        try {
            out.add(name + " " + step.run());
        } catch (Exception e) {
            out.add(name + " " + e.getClass().getSimpleName());
        }
    }
}
