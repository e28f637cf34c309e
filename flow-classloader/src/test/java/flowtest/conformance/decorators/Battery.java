package flowtest.conformance.decorators;

/** Records what each step of a fixture returned or threw, readable in a failure message. */
final class Battery {

    /** A step that may throw. */
    interface Step {
        Object run() throws Exception;
    }

    private final StringBuilder out = new StringBuilder();

    /** Runs {@code step} and records its value (characters escaped) or its exception's type and message. */
    Battery step(String name, Step step) {
        out.append(name).append('=');
        try {
            out.append(escape(String.valueOf(step.run())));
        } catch (Exception e) {
            out.append(e.getClass().getName()).append(':').append(e.getMessage());
        }
        out.append("; ");
        return this;
    }

    static String escape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x7f) {
                b.append(c);
            } else {
                b.append(String.format("\\u%04x", (int) c));
            }
        }
        return b.toString();
    }

    static String hex(byte[] bytes) {
        StringBuilder b = new StringBuilder();
        for (byte x : bytes) {
            b.append(String.format("%02x", x & 0xff));
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
