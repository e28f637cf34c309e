package dev.flow.loader.internal;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;

/**
 * Whether a directory may hold the class cache. A loader defines the class files it finds there, so
 * whoever can write the directory can choose the code the loader runs: the directory must belong to
 * the user running this process and be writable by nobody else (where the file system has POSIX
 * permissions, neither group- nor other-writable). A missing directory is created, with its missing
 * parents, readable, writable and searchable by its owner only. Stateless; thread-safe.
 */
final class CacheRoot {

    /** Owner-only permissions for the directories the cache creates. */
    static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private CacheRoot() {
    }

    /** Whether the default file system has POSIX permissions. */
    private static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }

    /** Attributes that create a directory owner-only where the file system has POSIX permissions. */
    static FileAttribute<?>[] ownerOnly() {
        return posix() ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)} : new FileAttribute<?>[0];
    }

    /**
     * The user id of this process where the file system shows it ({@code /proc/self} of Linux), else
     * {@code null}: then the owner of a file created in the directory is compared instead (a cold JVM's
     * first file creation costs some 15 ms more than reading two attributes).
     */
    private static Object selfUid() {
        try {
            return Files.getAttribute(Paths.get("/proc/self"), "unix:uid");
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Prepares {@code root} for the cache, creating it (owner-only) if it does not exist; returns why it
     * cannot be used, or {@code null} if it can.
     */
    static String refusal(Path root) {
        try {
            if (!Files.isDirectory(root)) {
                Files.createDirectories(root, ownerOnly());
            }
            if (!Files.isWritable(root)) {
                return "it cannot be written by the user running this process";
            }
            if (posix()) {
                PosixFileAttributes a = Files.readAttributes(root, PosixFileAttributes.class);
                Set<PosixFilePermission> p = a.permissions();
                if (p.contains(PosixFilePermission.GROUP_WRITE) || p.contains(PosixFilePermission.OTHERS_WRITE)) {
                    return "it is writable by others than its owner (" + PosixFilePermissions.toString(p) + ")";
                }
                Object self = selfUid();
                if (self != null) {
                    Object uid = Files.getAttribute(root, "unix:uid");
                    return self.equals(uid) ? null
                            : "it belongs to " + a.owner().getName() + ", not to uid " + self + ", the user running this process";
                }
            }
            UserPrincipal owner = Files.getOwner(root);
            // The owner of a file this process creates is the user it runs as.
            Path probe = root.resolve(".owner-" + ProcessHandle.current().pid() + "-" + Thread.currentThread().getId() + "-"
                    + System.nanoTime() + ".tmp");
            Files.createFile(probe);
            UserPrincipal self;
            try {
                self = Files.getOwner(probe);
            } finally {
                Files.deleteIfExists(probe);
            }
            if (!owner.equals(self)) {
                return "it belongs to " + owner.getName() + ", not to " + self.getName() + ", the user running this process";
            }
            return null;
        } catch (IOException | RuntimeException e) {
            return "it cannot be created or written (" + e + ")";
        }
    }
}
