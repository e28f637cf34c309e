package dev.flow.bench.load.handlers;

import dev.flow.Transport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * A RESP server of {@code PING}, {@code SET} and {@code GET} written the way most blocking handlers are:
 * read the {@code *N} line, then each argument's {@code $len} line and its bytes, run the command against
 * a map shared by all connections, write the reply and flush it, one flush per reply (pipelined commands
 * too). Another command gets an {@code -ERR} reply; a request that is not a multibulk gets {@code -ERR
 * Protocol error} and the connection closes. It knows only the public {@link Transport} methods: no reply
 * batching, no look at the input buffer. The load driver's untuned baseline (issue #19), beside the tuned
 * RESP sample.
 *
 * <p>Thread model: one flow (or thread) per connection; the map is shared and must be thread-safe.
 */
public final class PlainResp implements Callable<Long> {
    private static final int MAX_ARGUMENTS = 1024;
    private static final int MAX_ARGUMENT_BYTES = 512 * 1024;

    private final Transport transport;
    private final Map<String, byte[]> data;

    /** Creates a handler for one connection over {@code data}, a thread-safe map shared by every connection. */
    public PlainResp(Transport transport, Map<String, byte[]> data) {
        this.transport = transport;
        this.data = data;
    }

    /** Runs commands until the client closes or breaks the protocol; returns how many were run. */
    @Override
    public Long call() throws IOException {
        long commands = 0;
        String header;
        while ((header = transport.readLine()) != null) {
            int count = header.startsWith("*") ? number(header) : -1;
            if (count < 1 || count > MAX_ARGUMENTS) {
                reply("-ERR Protocol error: expected a multibulk of 1.." + MAX_ARGUMENTS + " arguments\r\n");
                break;
            }
            byte[][] args = new byte[count][];
            for (int i = 0; i < count; i++) {
                String lengthLine = transport.readLine();
                int length = lengthLine != null && lengthLine.startsWith("$") ? number(lengthLine) : -1;
                if (length < 0 || length > MAX_ARGUMENT_BYTES) {
                    reply("-ERR Protocol error: expected a bulk string of 0.." + MAX_ARGUMENT_BYTES + " bytes\r\n");
                    return commands;
                }
                byte[] withCrlf = new byte[length + 2];
                transport.readFully(withCrlf, 0, withCrlf.length);
                args[i] = Arrays.copyOf(withCrlf, length);
            }
            run(args);
            commands++;
        }
        return commands;
    }

    private void run(byte[][] args) throws IOException {
        String command = new String(args[0], StandardCharsets.UTF_8).toUpperCase(Locale.ROOT);
        if (command.equals("PING") && args.length == 1) {
            reply("+PONG\r\n");
        } else if (command.equals("SET") && args.length == 3) {
            data.put(new String(args[1], StandardCharsets.UTF_8), args[2]);
            reply("+OK\r\n");
        } else if (command.equals("GET") && args.length == 2) {
            byte[] value = data.get(new String(args[1], StandardCharsets.UTF_8));
            if (value == null) {
                reply("$-1\r\n");
            } else {
                transport.writeText("$" + value.length + "\r\n");
                transport.write(value);
                transport.writeText("\r\n");
                transport.flush();
            }
        } else {
            reply("-ERR unknown command or wrong number of arguments for '" + command + "'\r\n");
        }
    }

    private void reply(String text) throws IOException {
        transport.writeText(text);
        transport.flush();
    }

    /** The number after the first character of {@code line}, or -1 if there is none. */
    private static int number(String line) {
        try {
            return Integer.parseInt(line.substring(1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
