package dev.flow.samples.launcher;

import dev.flow.TransportConfig;
import java.util.List;
import java.util.Map;

/**
 * What a sample server contributes to {@link SampleServer}: its session handler class, its settings
 * and how they become the handler's shared arguments.
 *
 * <p>The handler class is a {@code Callable} with a public constructor {@code (Transport, args...)}
 * where {@code args} are {@link Setup#handlerArgs()}. In continuation mode it is loaded through the
 * {@code ContinuationClassLoader}, with its whole package ({@link #loadedPackages()}); the shared
 * arguments must therefore be of classes outside that package. Implementations are immutable.
 */
public interface SampleProtocol {

    /** The sample's name, e.g. {@code redis-server}; used in the usage text. */
    String name();

    /** The fully qualified name of the session handler class. */
    String handlerClass();

    /** The package of the handler class. */
    default String protocolPackage() {
        String c = handlerClass();
        return c.substring(0, c.lastIndexOf('.'));
    }

    /**
     * The packages loaded through the {@code ContinuationClassLoader} in continuation mode: the
     * protocol package and {@code dev.flow.samples.wire}, whose helpers make blocking calls too.
     */
    default List<String> loadedPackages() {
        return List.of(protocolPackage(), dev.flow.samples.wire.OutputBuffer.class.getPackageName());
    }

    /**
     * Whether the protocol's clients speak first (HTTP, Redis): then the server makes a connection's
     * session only once its first byte arrives ({@code FlowServer.Builder.clientSpeaksFirst}), and a
     * connection that resets or stays silent costs no session. Default {@code false}, as a protocol
     * whose server speaks first (SMTP's greeting) must have it.
     */
    default boolean clientSpeaksFirst() {
        return false;
    }

    /** The protocol's settings (limits), each an option {@code --name value} with a default. */
    List<Setting> settings();

    /**
     * Validates the settings given on the command line (option name without {@code --} to value;
     * missing ones take their default) and returns what every session shares.
     *
     * @throws IllegalArgumentException naming the option, the value and the expectation
     */
    Setup setup(Map<String, String> values);

    /** One protocol setting: its option name (without {@code --}), default and description. */
    record Setting(String name, String defaultValue, String description) {
        /**
         * Returns this setting's integer value from {@code values}, or its default.
         *
         * @throws IllegalArgumentException if the value is not an integer in {@code min..max}
         */
        public int intValue(Map<String, String> values, int min, int max) {
            return LaunchOptions.number("--" + name, values.getOrDefault(name, defaultValue), min, max);
        }
    }

    /** The transport configuration of every session and the arguments the handler is given after its transport. */
    record Setup(TransportConfig config, List<Object> handlerArgs) {
        /** Copies the argument list. */
        public Setup {
            handlerArgs = List.copyOf(handlerArgs);
        }
    }
}
