package flowtest.statics;

import java.util.concurrent.Callable;

/** Calls {@code pause()} through the declaring class, a subclass that inherits it and one that hides it. */
public class CallsPauses implements Callable<String> {
    @Override
    public String call() {
        return Base.pause() + " " + Inheriting.pause() + " " + Hiding.pause();
    }
}
