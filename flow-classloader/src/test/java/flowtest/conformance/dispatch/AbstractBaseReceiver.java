package flowtest.conformance.dispatch;

import flowtest.support.Async;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Callable;

/**
 * The receiver's static type is an in-scope abstract class that inherits {@code read()} from the JDK
 * without declaring it; a subclass overrides it and awaits.
 */
public final class AbstractBaseReceiver implements Callable<Object> {

    abstract static class Source extends InputStream {
        int reads;
    }

    static final class Countdown extends Source {
        private int left = 3;

        @Override
        public int read() {
            reads++;
            return left == 0 ? -1 : Async.later(left--).join();
        }
    }

    @Override
    public Object call() throws IOException {
        Source s = new Countdown();
        StringBuilder b = new StringBuilder();
        for (int c = s.read(); c != -1; c = s.read()) {
            b.append(c);
        }
        return b + " in " + s.reads + " reads";
    }
}
