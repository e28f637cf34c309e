package flowtest.conformance.lambdas;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/**
 * Method references whose parameters and results need unboxing, widening and boxing, as
 * LambdaMetafactory adapts them; every target awaits, so that each site is desugared.
 */
public final class UnboxingAndWideningAwaiting implements Callable<Object> {

    static String takesLong(long x) throws Exception {
        return "long:" + Async.later(x).get();
    }

    static String takesInt(int x) throws Exception {
        return "int:" + Async.later(x).get();
    }

    static String takesDouble(double x) throws Exception {
        return "double:" + Async.later(x).get();
    }

    static long twice(long x) throws Exception {
        return 2 * Async.later(x).get();
    }

    static int half(long x) throws Exception {
        return (int) (Async.later(x).get() / 2);
    }

    static Integer boxed(int x) throws Exception {
        return Async.later(x + 1).get();
    }

    static char letter(int x) throws Exception {
        return (char) ('a' + Async.later(x).get());
    }

    static boolean negate(boolean b) throws Exception {
        return !Async.later(b).get();
    }

    static double ratio(float f) throws Exception {
        return Async.later(f).get() / 4.0;
    }

    static int count(Number n) throws Exception {
        return Async.later(n).get().intValue() + 1;
    }

    @Override
    public Object call() throws Exception {
        Fn<Integer, String> unboxWiden = UnboxingAndWideningAwaiting::takesLong;
        Fn<Character, String> charToInt = UnboxingAndWideningAwaiting::takesInt;
        Fn<Short, String> shortToDouble = UnboxingAndWideningAwaiting::takesDouble;
        Fn<Float, String> floatToDouble = UnboxingAndWideningAwaiting::takesDouble;
        Fn<Byte, String> byteToLong = UnboxingAndWideningAwaiting::takesLong;
        IntToLong widenParameter = UnboxingAndWideningAwaiting::twice;
        IntToLong widenResult = UnboxingAndWideningAwaiting::half;
        IntToLong unboxResult = UnboxingAndWideningAwaiting::boxed;
        IntToLong charResult = UnboxingAndWideningAwaiting::letter;
        Fn<Integer, Object> boxResult = UnboxingAndWideningAwaiting::twice;
        Fn<Byte, Number> boxResultAsNumber = UnboxingAndWideningAwaiting::half;
        Fn<Boolean, Boolean> booleans = UnboxingAndWideningAwaiting::negate;
        Fn<Float, Double> floats = UnboxingAndWideningAwaiting::ratio;
        Fn<Character, Integer> charBoxed = c -> Async.later((int) c).get();
        Fn<Short, String> shortToInt = UnboxingAndWideningAwaiting::takesInt;
        Fn<Character, String> charToLong = UnboxingAndWideningAwaiting::takesLong;
        Fn<Integer, Comparable<?>> boxAsComparable = UnboxingAndWideningAwaiting::letter;
        Fn<Long, Object> viaSupertype = UnboxingAndWideningAwaiting::count;
        return unboxWiden.apply(40) + "," + charToInt.apply('A') + "," + shortToDouble.apply((short) 3) + ","
                + floatToDouble.apply(1.5f) + "," + byteToLong.apply((byte) -2) + "," + widenParameter.apply(21) + ","
                + widenResult.apply(9) + "," + unboxResult.apply(6) + "," + charResult.apply(2) + ","
                + boxResult.apply(5) + "," + boxResult.apply(5).getClass().getSimpleName() + ","
                + boxResultAsNumber.apply((byte) 8) + "," + boxResultAsNumber.apply((byte) 8).getClass().getSimpleName() + ","
                + booleans.apply(true) + "," + floats.apply(3f) + "," + charBoxed.apply('z') + "," + shortToInt.apply((short) 7)
                + "," + charToLong.apply('c') + "," + boxAsComparable.apply(1) + "," + viaSupertype.apply(41L);
    }
}
