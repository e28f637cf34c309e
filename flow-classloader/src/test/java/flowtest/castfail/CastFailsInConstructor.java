package flowtest.castfail;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/** The replaced call fails its cast inside a constructor; the flow awaits afterwards. */
public final class CastFailsInConstructor implements Callable<Object> {

    static final class Holder {
        final String name;

        Holder(Source s) {
            name = s.name();
        }
    }

    @Override
    public Object call() throws Exception {
        String first;
        try {
            first = new Holder(new Source()).name;
        } catch (RuntimeException e) {
            first = e.getClass().getSimpleName();
        }
        return first + ", then " + Async.whenAwaited(5).get();
    }
}
