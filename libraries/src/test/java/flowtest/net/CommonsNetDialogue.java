package flowtest.net;

import dev.flow.Connector;
import dev.flow.Transport;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.apache.commons.net.io.CRLFLineReader;
import org.apache.commons.net.io.DotTerminatedMessageReader;

/**
 * An SMTP/POP3-style client dialogue over a transport's stream views, with the readers and writers
 * Commons Net's clients build ({@code SMTP._connectAction_}: a {@code CRLFLineReader} over an {@code
 * InputStreamReader}, a {@code BufferedWriter} over an {@code OutputStreamWriter}): a greeting,
 * commands with multi-line replies read as {@code SMTP.getReply()} does, and a dot-terminated message
 * read through {@code DotTerminatedMessageReader}. Returns the transcript.
 */
public final class CommonsNetDialogue implements Callable<Object> {

    private final Connector connector;

    public CommonsNetDialogue(Connector connector) {
        this.connector = connector;
    }

    private static String reply(BufferedReader reader) throws IOException {
        StringBuilder b = new StringBuilder();
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            b.append('[').append(line).append(']');
            if (line.length() < 4 || line.charAt(3) != '-') {
                break;
            }
        }
        return b.toString();
    }

    private static void send(BufferedWriter writer, String command) throws IOException {
        writer.write(command + "\r\n");
        writer.flush();
    }

    @Override
    public Object call() throws Exception {
        Transport t = connector.connect();
        try {
            BufferedReader reader = new CRLFLineReader(new InputStreamReader(t.inputStream(), StandardCharsets.UTF_8));
            BufferedWriter writer = new BufferedWriter(new OutputStreamWriter(t.outputStream(), StandardCharsets.UTF_8));
            StringBuilder transcript = new StringBuilder(reply(reader));
            for (String command : new String[] {"EHLO flow", "MAIL FROM:<a@example.org>", "RETR 1"}) {
                send(writer, command);
                transcript.append(' ').append(reply(reader));
            }
            try (BufferedReader message = new DotTerminatedMessageReader(reader)) {
                transcript.append(" message:");
                for (String line = message.readLine(); line != null; line = message.readLine()) {
                    transcript.append('[').append(line).append(']');
                }
            }
            send(writer, "QUIT");
            return transcript.append(' ').append(reply(reader)).toString();
        } finally {
            t.close();
        }
    }
}
