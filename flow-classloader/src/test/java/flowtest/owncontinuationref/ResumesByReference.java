package flowtest.owncontinuationref;

import java.util.function.UnaryOperator;
import org.apache.commons.javaflow.api.Continuation;

/** Resumes JavaFlow continuations through a method reference: a loader including this package must refuse it. */
public final class ResumesByReference {

    /** Resumes {@code c} once. */
    public static Continuation step(Continuation c) {
        UnaryOperator<Continuation> resume = Continuation::resume;
        return resume.apply(c);
    }
}
