package dev.flow.samples.smtp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes each message to a directory: {@code ID.eml} holds the data as received, {@code ID.envelope}
 * the reverse path and the recipients, one per line. Each file is written under a temporary name and
 * moved into place, so a reader never sees half a message. Thread-safe.
 */
public final class DirectoryMailStore implements MailStore {

    private final Path dir;
    private final String prefix = Long.toString(System.currentTimeMillis(), 36);
    private final AtomicLong next = new AtomicLong();

    /**
     * Uses {@code dir}, creating it if needed.
     *
     * @throws IOException if it cannot be created
     */
    public DirectoryMailStore(Path dir) throws IOException {
        this.dir = Files.createDirectories(dir);
    }

    @Override
    public String store(String from, List<String> recipients, byte[] data, boolean secured) throws IOException {
        String id = prefix + "-" + next.incrementAndGet();
        StringBuilder envelope = new StringBuilder("from <").append(from).append(">\n");
        for (String r : recipients) {
            envelope.append("to <").append(r).append(">\n");
        }
        envelope.append(secured ? "tls\n" : "plain\n");
        write(id + ".envelope", envelope.toString().getBytes(StandardCharsets.UTF_8));
        write(id + ".eml", data);
        return id;
    }

    private void write(String name, byte[] bytes) throws IOException {
        Path tmp = dir.resolve(name + ".tmp");
        Files.write(tmp, bytes);
        Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE);
    }
}
