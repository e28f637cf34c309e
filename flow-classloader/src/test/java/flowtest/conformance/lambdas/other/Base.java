package flowtest.conformance.lambdas.other;

import flowtest.support.Async;

/** A base class in another package with protected methods, one awaiting. */
public class Base {

    protected String plain() {
        return "plain";
    }

    protected String slow() throws Exception {
        return Async.later("slow").get();
    }
}
