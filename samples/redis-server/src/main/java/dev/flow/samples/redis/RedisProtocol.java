package dev.flow.samples.redis;

import dev.flow.TransportConfig;
import dev.flow.samples.launcher.SampleProtocol;
import dev.flow.samples.launcher.SlowPeerSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The RESP sample for {@link dev.flow.samples.launcher.SampleServer}: settings and the shared store.
 * Slow peers: a connection idle for {@code --idle-timeout-ms} (default 300 s) is closed, and a command
 * must arrive within {@code --request-timeout-ms} (default 30 s) of its first byte, plus 1 s per {@code
 * --min-request-rate} bytes (default 1,024), else the connection closes (see {@link SlowPeerSettings}).
 * Immutable.
 */
public final class RedisProtocol implements SampleProtocol {

    static final Setting MAX_BULK = new Setting("max-bulk-bytes", String.valueOf(16 << 20),
            "longest bulk string in a request, bytes");
    static final Setting MAX_MULTIBULK = new Setting("max-multibulk", String.valueOf(1 << 20),
            "most arguments in one multibulk request");
    static final Setting MAX_INLINE = new Setting("max-inline-bytes", String.valueOf(64 << 10),
            "longest inline command or length line, bytes");
    static final Setting MAX_COMMAND = new Setting("max-command-bytes", String.valueOf(32 << 20),
            "most bytes of bulk strings in one command, all arguments together");
    static final Setting IDLE_TIMEOUT = new Setting("idle-timeout-ms", "300000",
            "close a connection idle that long, 0 = never (whole seconds)");

    /** {@code true}: a Redis client sends its command first. */
    @Override
    public boolean clientSpeaksFirst() {
        return true;
    }

    @Override
    public String name() {
        return "redis-server";
    }

    @Override
    public String handlerClass() {
        return "dev.flow.samples.redis.protocol.RespSession";
    }

    @Override
    public List<Setting> settings() {
        return List.of(MAX_BULK, MAX_MULTIBULK, MAX_INLINE, MAX_COMMAND, IDLE_TIMEOUT, SlowPeerSettings.REQUEST_TIMEOUT,
                SlowPeerSettings.MIN_REQUEST_RATE);
    }

    /** A new, empty {@link Store} per server, shared by its sessions. */
    @Override
    public Setup setup(Map<String, String> values) {
        RedisLimits limits = new RedisLimits(MAX_BULK.intValue(values, 1, Integer.MAX_VALUE - 2),
                MAX_MULTIBULK.intValue(values, 1, Integer.MAX_VALUE), MAX_INLINE.intValue(values, 16, 64 << 20),
                MAX_COMMAND.intValue(values, 1, Integer.MAX_VALUE));
        TransportConfig config = SlowPeerSettings.apply(TransportConfig.builder(), values)
                .maxLineLength(limits.maxInlineBytes())
                .idleTimeout(Duration.ofMillis(IDLE_TIMEOUT.intValue(values, 0, Integer.MAX_VALUE)))
                .build();
        return new Setup(config, List.of(new Store(), limits));
    }
}
