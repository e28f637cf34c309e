package flowtest.conformance.lambdas;

import flowtest.support.Async;
import java.util.Comparator;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Lambdas and method references on JDK functional interfaces ({@code Supplier}, {@code Function},
 * {@code BiFunction}, {@code Callable}, {@code Runnable}, {@code Comparator}) whose body awaits, called
 * by in-scope code: no JDK frame stands between the flow and the await, so each must suspend.
 */
public final class JdkInterfaceLambdasAwaiting implements Callable<Object> {

    private final String suffix = "!";
    private final StringBuilder out = new StringBuilder();

    private String slow(String s) {
        return Async.later(s).join() + suffix;
    }

    private void record() {
        out.append(Async.later("j").join());
    }

    @Override
    public Object call() throws Exception {
        CompletableFuture<String> a = Async.later("a");
        Supplier<String> supplier = () -> a.join() + suffix;
        Supplier<String> boundJoin = Async.later("b")::join;
        Function<String, String> function = x -> x + Async.later("c").join();
        Function<CompletableFuture<String>, String> unboundJoin = CompletableFuture::join;
        Function<String, String> privateRef = this::slow;
        BiFunction<String, Integer, String> bi = (x, n) -> x.repeat(Async.later(n).join());
        Callable<String> callable = () -> Async.later("d").get();
        Callable<String> callableRef = Async.later("i")::get;
        Runnable runnable = () -> out.append(Async.later("e").join());
        Runnable runnableRef = this::record;
        Comparator<String> comparator = (x, y) -> Async.later(x.compareTo(y)).join();
        runnable.run();
        runnableRef.run();
        return supplier.get() + boundJoin.get() + function.apply("x") + unboundJoin.apply(Async.later("f"))
                + privateRef.apply("g") + bi.apply("h", 2) + callable.call() + callableRef.call() + out
                + comparator.compare("a", "b");
    }
}
