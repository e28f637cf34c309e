package flowtest.statics;

import java.util.concurrent.Callable;

/** Calls the final {@code name()} on the declaring class and through a subclass's type, and the non-final {@code label()}. */
public class CallsFinals implements Callable<String> {
    @Override
    public String call() {
        Base base = new Base();
        Inheriting inheriting = new Inheriting();
        return base.name() + " " + inheriting.name() + " " + base.label();
    }
}
