package dev.flow.samples.http;

import dev.flow.TransportConfig;
import dev.flow.samples.launcher.SampleProtocol;
import dev.flow.samples.launcher.SlowPeerSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The HTTP sample for {@link dev.flow.samples.launcher.SampleServer}: its settings. Slow peers: a
 * connection idle for {@code --idle-timeout-ms} (default 60 s) is closed, and a request (head and body)
 * must arrive within {@code --request-timeout-ms} (default 30 s) of its first byte, plus 1 s per {@code
 * --min-request-rate} bytes (default 1,024), else it gets 408 and the connection closes (see {@link
 * SlowPeerSettings}). Immutable.
 */
public final class HttpProtocol implements SampleProtocol {

    static final Setting MAX_HEADER = new Setting("max-header-bytes", String.valueOf(8 << 10),
            "longest request line + header fields, bytes (431 or 414 over it)");
    static final Setting MAX_BODY = new Setting("max-body-bytes", String.valueOf(1 << 20),
            "longest request body, bytes (413 over it)");
    static final Setting MAX_SLEEP = new Setting("max-sleep-ms", "60000", "longest GET /sleep?ms=N");
    static final Setting IDLE_TIMEOUT = new Setting("idle-timeout-ms", "60000",
            "close a connection idle that long, 0 = never (whole seconds)");

    /** {@code true}: an HTTP client sends its request first. */
    @Override
    public boolean clientSpeaksFirst() {
        return true;
    }

    @Override
    public String name() {
        return "http-server";
    }

    @Override
    public String handlerClass() {
        return "dev.flow.samples.http.protocol.HttpSession";
    }

    @Override
    public List<Setting> settings() {
        return List.of(MAX_HEADER, MAX_BODY, MAX_SLEEP, IDLE_TIMEOUT, SlowPeerSettings.REQUEST_TIMEOUT,
                SlowPeerSettings.MIN_REQUEST_RATE);
    }

    @Override
    public Setup setup(Map<String, String> values) {
        HttpLimits limits = new HttpLimits(MAX_HEADER.intValue(values, 64, 1 << 20),
                MAX_BODY.intValue(values, 0, Integer.MAX_VALUE - 8), MAX_SLEEP.intValue(values, 0, 3_600_000));
        TransportConfig config = SlowPeerSettings.apply(TransportConfig.builder(), values)
                .charset(StandardCharsets.ISO_8859_1)
                .maxLineLength(limits.maxHeaderBytes())
                .idleTimeout(Duration.ofMillis(IDLE_TIMEOUT.intValue(values, 0, Integer.MAX_VALUE)))
                .build();
        return new Setup(config, List.of(limits));
    }
}
