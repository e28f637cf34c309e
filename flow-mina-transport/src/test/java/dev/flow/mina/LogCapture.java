package dev.flow.mina;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Captures what a class logs through {@link System.Logger} (backed by {@code java.util.logging} when
 * no other provider is installed), which is where Flow reports when no SLF4J binding is active (the
 * tests bind slf4j-nop).
 */
final class LogCapture implements AutoCloseable {

    private final Logger logger;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord r) {
            lines.add(r.getLevel() + " " + r.getMessage() + (r.getThrown() != null ? " [stack trace]" : ""));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    LogCapture(Class<?> source) {
        this.logger = Logger.getLogger(source.getName());
        handler.setLevel(Level.ALL);
        logger.addHandler(handler);
    }

    /** The records so far, one string each: level, message and a marker if it carried a stack trace. */
    List<String> lines() {
        return List.copyOf(lines);
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
