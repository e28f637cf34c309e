package dev.flow.samples.http;

import dev.flow.samples.launcher.SampleServer;

/**
 * The command line of the HTTP sample:
 * {@code java -jar http-server.jar --port P --mode sync|continuation [--workers N] [--policy ...]};
 * {@code --help} lists every option.
 */
public final class HttpServer {

    private HttpServer() {
    }

    /** Runs the server until SIGTERM. */
    public static void main(String[] args) throws InterruptedException {
        SampleServer.main(new HttpProtocol(), args);
    }
}
