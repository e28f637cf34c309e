package flowtest.ccl;

import flowtest.support.Async;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;

/**
 * Looks up its service through the context class loader (by {@code ServiceLoader.load(Greeter.class)}, as
 * libraries find their providers) before and after awaits, then sets a context class loader of its own and
 * checks that it is still its own after an await.
 */
public class FindsItsService implements Callable<Object> {

    private String look() {
        boolean mine = Thread.currentThread().getContextClassLoader() == getClass().getClassLoader();
        return mine + " " + ServiceLoader.load(Greeter.class).findFirst().map(Greeter::greet).orElse("none");
    }

    @Override
    public Object call() throws Exception {
        StringBuilder b = new StringBuilder(look());
        for (int i = 0; i < 3; i++) {
            b.append(" | ").append(Async.later(i).join()).append(' ').append(look());
        }
        Thread thread = Thread.currentThread();
        ClassLoader was = thread.getContextClassLoader();
        try (URLClassLoader own = new URLClassLoader(new URL[0], null)) {
            thread.setContextClassLoader(own);
            Async.later(0).join();
            b.append(" | set ").append(Thread.currentThread().getContextClassLoader() == own);
        } finally {
            Thread.currentThread().setContextClassLoader(was);
        }
        return b.append(" | ").append(look()).toString();
    }
}
