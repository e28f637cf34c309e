package flowtest.missing;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** Clones an array (a call whose owner is an array type) in the method that awaits. */
public class ClonesArray implements Callable<Object> {
    private static final byte[] DATA = {1, 2, 3};
    private final CompletableFuture<String> f;

    public ClonesArray(CompletableFuture<String> f) {
        this.f = f;
    }

    @Override
    public Object call() {
        byte[] copy = DATA.clone();
        return "got " + f.join() + copy.length;
    }
}
