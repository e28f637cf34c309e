package dev.flow.mina;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for {@code localhost} and {@code 127.0.0.1}, made once per test JVM by the
 * JDK's {@code keytool} in a temporary directory, and the server and client {@link SSLContext}s over it.
 * Thread-safe.
 */
final class TestTls {

    private static final char[] PASSWORD = "test-only".toCharArray();
    private static SSLContext server;
    private static SSLContext client;

    private TestTls() {
    }

    /** A context whose key manager holds the certificate. */
    static synchronized SSLContext serverContext() {
        make();
        return server;
    }

    /** A context that trusts the certificate. */
    static synchronized SSLContext clientContext() {
        make();
        return client;
    }

    private static void make() {
        if (server != null) {
            return;
        }
        try {
            Path dir = Files.createTempDirectory("flow-tls-test");
            Path store = dir.resolve("server.p12");
            Path log = dir.resolve("keytool.log");
            String keytool = System.getProperty("java.home") + File.separator + "bin" + File.separator + "keytool";
            Process p = new ProcessBuilder(keytool, "-genkeypair", "-alias", "flow-test", "-keyalg", "EC",
                    "-groupname", "secp256r1", "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                    "-validity", "2", "-storetype", "PKCS12", "-keystore", store.toString(),
                    "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD))
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException("keytool failed: " + Files.readString(log));
            }
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(store)) {
                ks.load(in, PASSWORD);
            }
            Files.delete(store);
            Files.delete(log);
            Files.delete(dir);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, PASSWORD);
            server = SSLContext.getInstance("TLS");
            server.init(kmf.getKeyManagers(), null, null);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            client = SSLContext.getInstance("TLS");
            client.init(null, tmf.getTrustManagers(), null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while making the test certificate", e);
        }
    }
}
