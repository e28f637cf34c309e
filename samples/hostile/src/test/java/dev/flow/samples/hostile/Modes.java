package dev.flow.samples.hostile;

/** The server modes every hostile test runs in, as sample command-line options. */
final class Modes {

    private Modes() {
    }

    /**
     * The options of {@code mode}: {@code sync}, {@code continuation} (2 workers) or {@code
     * continuation-io-threads} (2 workers, flows resumed on the I/O threads).
     */
    static String[] args(String mode) {
        switch (mode) {
            case "sync":
                return new String[] {"--mode", "sync"};
            case "continuation":
                return new String[] {"--mode", "continuation", "--workers", "2"};
            case "continuation-io-threads":
                return new String[] {"--mode", "continuation", "--workers", "2", "--dispatch", "io-threads"};
            default:
                throw new IllegalArgumentException("mode: " + mode + " (expected: sync, continuation or continuation-io-threads)");
        }
    }
}
