package dev.flow.samples.redis;

import dev.flow.samples.launcher.SampleServer;

/**
 * The command line of the RESP sample:
 * {@code java -jar redis-server.jar --port P --mode sync|continuation [--workers N] [--policy ...]};
 * {@code --help} lists every option.
 */
public final class RedisServer {

    private RedisServer() {
    }

    /** Runs the server until SIGTERM. */
    public static void main(String[] args) throws InterruptedException {
        SampleServer.main(new RedisProtocol(), args);
    }
}
