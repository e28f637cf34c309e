package dev.flow.samples.smtp;

import dev.flow.samples.launcher.LaunchOptions;
import dev.flow.samples.launcher.SampleServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The SMTP sample started in the test's JVM, as its command line would start it. Stateless. */
final class SmtpServers {

    private SmtpServers() {
    }

    /**
     * Starts the sample on a free port in {@code mode}, storing messages in {@code storeDir} and offering
     * STARTTLS with {@code keystore} (its password {@link TestKeystore#PASSWORD}), with the options {@code
     * more} added. The caller closes it.
     */
    static SampleServer withStartTls(String mode, Path storeDir, Path keystore, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of("--port", "0", "--mode", mode, "--store-dir", storeDir.toString(),
                "--keystore", keystore.toString(), "--keystore-password", TestKeystore.PASSWORD));
        args.addAll(List.of(more));
        return SampleServer.start(new SmtpProtocol(),
                LaunchOptions.parse(new SmtpProtocol().settings(), args.toArray(new String[0])));
    }
}
