package dev.flow.samples.launcher;

import dev.flow.TransportConfig;
import java.time.Duration;
import java.util.Map;

/**
 * The slow-peer settings the sample protocols share: {@code --request-timeout-ms} and {@code
 * --min-request-rate}, applied as {@link TransportConfig#requestTimeout()} and {@link
 * TransportConfig#minRequestRate()}. With the defaults (30 s, 1,024 bytes/s) a request must arrive
 * within 30 s of its first byte plus one second per KiB received, so a peer trickling one byte every 5
 * s is cut off about 30 s after its request's first byte, while a 1 MiB body sent at 1 KiB/s or faster
 * gets through. Immutable.
 */
public final class SlowPeerSettings {

    /** {@code --request-timeout-ms}: how long a request may take to arrive; default 30,000, 0 = no limit. */
    public static final SampleProtocol.Setting REQUEST_TIMEOUT = new SampleProtocol.Setting("request-timeout-ms",
            "30000", "a request must arrive within this of its first byte (+1 s per min-request-rate bytes), 0 = no limit");
    /** {@code --min-request-rate}: bytes per second that earn a request one more second; default 1,024, 0 = none. */
    public static final SampleProtocol.Setting MIN_REQUEST_RATE = new SampleProtocol.Setting("min-request-rate", "1024",
            "bytes/s: each this many bytes of a request extend its timeout by 1 s, 0 = no extension");

    private SlowPeerSettings() {
    }

    /**
     * Sets the request timeout and rate from {@code values} (or their defaults) on {@code config}.
     *
     * @throws IllegalArgumentException naming the option if a value is not an integer in range
     */
    public static TransportConfig.Builder apply(TransportConfig.Builder config, Map<String, String> values) {
        return config.requestTimeout(Duration.ofMillis(REQUEST_TIMEOUT.intValue(values, 0, Integer.MAX_VALUE)))
                .minRequestRate(MIN_REQUEST_RATE.intValue(values, 0, Integer.MAX_VALUE));
    }
}
