package flowtest.conformance.primitives;

import java.util.concurrent.Callable;
import java.util.concurrent.SubmissionPublisher;

/** {@code SubmissionPublisher.submit} blocks while a subscriber's buffer is full: no suspendable form, so it is reported. */
public final class SubmissionPublisherSubmit implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (SubmissionPublisher<String> publisher = new SubmissionPublisher<>()) {
            return "lag " + publisher.submit("item");
        }
    }
}
