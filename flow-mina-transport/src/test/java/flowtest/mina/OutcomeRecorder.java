package flowtest.mina;

import dev.flow.Deadline;
import dev.flow.DeadlineExceededException;
import dev.flow.LineEnding;
import dev.flow.LineTerminator;
import dev.flow.Line;
import dev.flow.SessionOutcome;
import dev.flow.Transport;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * A handler that ends its session as a real protocol would and records how: a bare LF is a protocol
 * error (answered at once), a command not followed by another within 200 ms times out (answered
 * {@code 421}), {@code QUIT} completes, {@code GONE} says the peer left.
 */
public class OutcomeRecorder implements Callable<Void> {
    private final Transport transport;

    public OutcomeRecorder(Transport transport) {
        this.transport = transport;
    }

    @Override
    public Void call() throws Exception {
        for (;;) {
            Line line;
            try (Deadline d = transport.deadline(Duration.ofMillis(200))) {
                line = transport.readLineBytes(LineTerminator.LF_OR_CRLF, 100);
            } catch (DeadlineExceededException e) {
                transport.writeLine("421 timeout");
                transport.recordOutcome(SessionOutcome.TIMED_OUT);
                return null;
            }
            if (line == null) {
                transport.recordOutcome(SessionOutcome.CLOSED_BY_PEER);
                return null;
            }
            if (line.ending() == LineEnding.LF) {
                transport.writeLine("500 bare LF");
                transport.recordOutcome(SessionOutcome.PROTOCOL_ERROR);
                return null;
            }
            String command = line.text(StandardCharsets.US_ASCII);
            transport.writeLine("250 " + command);
            if (command.equals("QUIT")) {
                return null;
            }
        }
    }
}
