package flowtest.missing;

import flowtest.absent.CompileOnly;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** Its awaiting method carries a compile-only annotation whose class is not on the class path. */
@CompileOnly
public class AnnotatedWithAbsentAnnotation implements Callable<Object> {
    private final CompletableFuture<String> f;

    public AnnotatedWithAbsentAnnotation(CompletableFuture<String> f) {
        this.f = f;
    }

    @CompileOnly
    @Override
    public Object call() {
        return "got " + f.join();
    }
}
