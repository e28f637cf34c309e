package dev.flow.samples.smtp;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps the latest messages in memory, at most {@code maxMessages} of them and {@code maxBytes} of data:
 * storing one more evicts the oldest. Thread-safe (one lock).
 */
public final class MemoryMailStore implements MailStore {

    private final int maxMessages;
    private final long maxBytes;
    private final Deque<Message> messages = new ArrayDeque<>();
    private final AtomicLong stored = new AtomicLong();
    private long bytes;

    /**
     * Creates an empty store.
     *
     * @throws IllegalArgumentException if a bound is not positive
     */
    public MemoryMailStore(int maxMessages, long maxBytes) {
        if (maxMessages <= 0) {
            throw new IllegalArgumentException("maxMessages: " + maxMessages + " (expected: > 0)");
        }
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes: " + maxBytes + " (expected: > 0)");
        }
        this.maxMessages = maxMessages;
        this.maxBytes = maxBytes;
    }

    @Override
    public String store(String from, List<String> recipients, byte[] data, boolean secured) {
        String id = "m" + stored.incrementAndGet();
        Message m = new Message(id, from, recipients, data, secured);
        synchronized (messages) {
            messages.addLast(m);
            bytes += data.length;
            while (messages.size() > maxMessages || (bytes > maxBytes && messages.size() > 1)) {
                bytes -= messages.removeFirst().data().length;
            }
        }
        return id;
    }

    /** The messages kept, oldest first. */
    public List<Message> messages() {
        synchronized (messages) {
            return new ArrayList<>(messages);
        }
    }

    /** The number of messages stored since the start, evicted ones included. */
    public long storedCount() {
        return stored.get();
    }
}
