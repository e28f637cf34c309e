package flowtest.mina;

import java.util.concurrent.Callable;

/** Returns at once: proves a worker is free. */
public class Quick implements Callable<String> {
    @Override
    public String call() {
        return "quick";
    }
}
