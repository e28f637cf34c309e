package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** Non-null call results below awaited arguments keep their values and order. */
public final class CallResultAcrossAwaitWhenNotNull implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        StringBuilder sb = new StringBuilder("a");
        sb.append(Async.later("b").get()).append(Async.later("c").get());
        return text().concat(Async.later("d").get()) + sb + buffer()[0] + buffer().length;
    }

    private static String text() {
        return "t";
    }

    private static int[] buffer() {
        return new int[] {7};
    }
}
