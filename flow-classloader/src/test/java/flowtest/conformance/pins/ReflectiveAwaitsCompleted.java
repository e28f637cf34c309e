package flowtest.conformance.pins;

import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** A method called reflectively awaits a future that is already complete; its unchecked exceptions are unwrapped. */
public final class ReflectiveAwaitsCompleted implements Callable<Object> {

    public String fetch() {
        return CompletableFuture.completedFuture("fetched").join();
    }

    @Override
    public Object call() throws Exception {
        try {
            return ReflectiveAwaitsCompleted.class.getMethod("fetch").invoke(this);
        } catch (InvocationTargetException e) {
            throw (RuntimeException) e.getCause();
        }
    }
}
