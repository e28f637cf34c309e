package dev.flow.samples.smtp;

import java.io.IOException;
import java.util.List;

/**
 * Where an SMTP session delivers the messages it accepted. Implementations are thread-safe: every
 * session of a server shares one.
 */
public interface MailStore {

    /**
     * Stores one message.
     *
     * @param from the reverse path, without its angle brackets ({@code ""} for the null path)
     * @param recipients the forward paths, in the order given
     * @param data the message exactly as received, dot-unstuffed, lines ending in CRLF
     * @param secured whether the message came over TLS
     * @return the message's id, quoted in the {@code 250} reply
     * @throws IOException if the message cannot be stored (the client gets a {@code 451})
     */
    String store(String from, List<String> recipients, byte[] data, boolean secured) throws IOException;

    /** A stored message. */
    record Message(String id, String from, List<String> recipients, byte[] data, boolean secured) {
        /** Copies the recipient list. */
        public Message {
            recipients = List.copyOf(recipients);
        }
    }
}
