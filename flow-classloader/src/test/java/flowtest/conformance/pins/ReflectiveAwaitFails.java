package flowtest.conformance.pins;

import flowtest.support.Async;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.Callable;

/** A method called reflectively awaits and fails; the flow awaits again after the reflective call. */
public final class ReflectiveAwaitFails implements Callable<Object> {

    public String fetch() {
        return Async.<String>failLater(new IOException("gone")).join();
    }

    @Override
    public Object call() throws Exception {
        String first;
        try {
            first = (String) ReflectiveAwaitFails.class.getMethod("fetch").invoke(this);
        } catch (InvocationTargetException e) {
            first = "failed";
        } catch (RuntimeException e) {
            first = "failed";
        }
        return first + ", then " + Async.later(10).get() + " and " + Async.later(-10).get();
    }
}
