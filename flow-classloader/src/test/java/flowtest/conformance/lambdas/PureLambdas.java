package flowtest.conformance.lambdas;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Lambdas and method references on an interface no implementation of which suspends, and on JDK
 * interfaces: nothing here can suspend, so the class is defined exactly as compiled.
 */
public final class PureLambdas implements Callable<Object> {

    interface Op {
        long apply(int x);
    }

    private final int offset = 3;

    private long shifted(long x) {
        return x + offset;
    }

    static long twice(long x) {
        return 2 * x;
    }

    @Override
    public Object call() {
        Op widen = PureLambdas::twice;
        Op bound = this::shifted;
        Op lambda = x -> x * offset;
        Function<Integer, String> jdk = Integer::toHexString;
        String joined = List.of(10, 11, 12).stream().map(jdk).collect(Collectors.joining(","));
        return widen.apply(21) + "," + bound.apply(4) + "," + lambda.apply(5) + "," + joined;
    }
}
