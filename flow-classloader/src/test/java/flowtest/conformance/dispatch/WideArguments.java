package flowtest.conformance.dispatch;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.function.DoubleBinaryOperator;
import java.util.function.LongBinaryOperator;

/** Dispatch through JDK interfaces whose arguments and results take two slots. */
public final class WideArguments implements Callable<Object> {

    static final class RemoteSum implements LongBinaryOperator {
        @Override
        public long applyAsLong(long a, long b) {
            return Async.later(a).join() + b;
        }
    }

    static final class RemoteScale implements DoubleBinaryOperator {
        @Override
        public double applyAsDouble(double x, double factor) {
            return Async.later(x).join() * factor;
        }
    }

    @Override
    public Object call() {
        LongBinaryOperator sum = new RemoteSum();
        DoubleBinaryOperator scale = new RemoteScale();
        long big = sum.applyAsLong(Long.MAX_VALUE - 5, 2);
        double d = scale.applyAsDouble(1.5, -4.0);
        return big + " " + d + " " + sum.applyAsLong(1, 2);
    }
}
