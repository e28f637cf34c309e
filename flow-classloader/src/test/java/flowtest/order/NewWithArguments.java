package flowtest.order;

import flowtest.support.Async;
import flowtest.support.Events;
import java.util.concurrent.Callable;

/**
 * {@code new T(arg)} in a method that suspends, with a plain argument and with suspending ones: each
 * {@code T} is initialised before its argument is evaluated.
 */
public final class NewWithArguments implements Callable<Object> {

    static class Resource {
        static {
            Events.add("Resource.<clinit>");
        }

        final int id;

        Resource(int id) {
            this.id = id;
            Events.add("Resource.<init> " + id);
        }
    }

    static final class Plain extends Resource {
        static {
            Events.add("Plain.<clinit>");
        }

        Plain(int id) {
            super(id);
        }
    }

    static final class Remote extends Resource {
        static {
            Events.add("Remote.<clinit>");
        }

        Remote(int id) {
            super(id);
        }
    }

    private static int plain(int v) {
        Events.add("plain argument " + v);
        return v;
    }

    private static int awaited(int v) throws Exception {
        Events.add("awaited argument " + v);
        return Async.later(v).get();
    }

    @Override
    public Object call() throws Exception {
        Events.add("call");
        Resource a = new Plain(plain(1));
        Resource b = new Resource(awaited(2));
        Resource c = new Remote(awaited(3));
        return a.id + b.id + c.id;
    }
}
