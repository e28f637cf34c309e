package dev.flow.samples.smtp;

import dev.flow.samples.launcher.SampleServer;

/**
 * The command line of the SMTP sample:
 * {@code java -jar smtp-server.jar --port P --mode sync|continuation [--workers N] [--keystore FILE
 * --keystore-password PW]}; {@code --help} lists every option. STARTTLS is offered when a key store is given.
 */
public final class SmtpServer {

    private SmtpServer() {
    }

    /** Runs the server until SIGTERM. */
    public static void main(String[] args) throws InterruptedException {
        SampleServer.main(new SmtpProtocol(), args);
    }
}
