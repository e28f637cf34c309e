package flowtest.conformance.primitives;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Callable;

/** {@code FileChannel.lock} waits for other processes' locks: no suspendable form, so it is reported. */
public final class FileChannelLock implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Path file = Files.createTempFile("flow-lock", ".tmp");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            try (FileLock lock = channel.lock()) {
                return "locked " + lock.isValid() + ", shared " + lock.isShared();
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
