package flowtest.conformance.lambdas;

import flowtest.support.Async;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The same awaiting lambdas called by in-scope code and then handed to JDK code ({@code
 * stream().map}, {@code List.forEach}): a JDK frame then stands between the flow and the await, so
 * those calls pin (strict mode refuses the site).
 */
public final class JdkInterfaceLambdaHandedToJdkCode implements Callable<Object> {

    @Override
    public Object call() {
        Function<Integer, Integer> twice = i -> Async.later(i * 2).join();
        List<Integer> seen = new ArrayList<>();
        Consumer<Integer> record = i -> seen.add(Async.later(i).join());
        int first = twice.apply(1);
        record.accept(first);
        List<Integer> mapped = List.of(2, 3).stream().map(twice).collect(Collectors.toList());
        mapped.forEach(record);
        return first + " " + mapped + " " + seen;
    }
}
