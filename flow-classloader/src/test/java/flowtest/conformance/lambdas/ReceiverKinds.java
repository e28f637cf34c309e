package flowtest.conformance.lambdas;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** Static, bound, unbound, constructor, array-constructor and super method references. */
public final class ReceiverKinds implements Callable<Object> {

    static class Base {
        String who() {
            return "base";
        }
    }

    static final class Point {
        final int x;

        Point(int x) {
            this.x = x;
        }

        private Point(String s) {
            this.x = s.length();
        }

        @Override
        public String toString() {
            return "Point(" + x + ")";
        }
    }

    static final class Sub extends Base {
        @Override
        String who() {
            return "sub";
        }

        String both() throws Exception {
            Sup<String> sup = super::who;
            Sup<String> own = this::who;
            return sup.get() + "/" + own.get();
        }
    }

    static String twice(String s) {
        return s + s;
    }

    @Override
    public Object call() throws Exception {
        List<String> out = new ArrayList<>();
        Fn<String, String> stat = ReceiverKinds::twice;
        out.add(stat.apply("ab"));
        String prefix = "pre-";
        Fn<String, String> bound = prefix::concat;
        out.add(bound.apply("fix"));
        Fn<String, Integer> unbound = String::length;
        out.add(String.valueOf(unbound.apply("four")));
        Fn<Integer, Point> ctor = Point::new;
        out.add(ctor.apply(3).toString());
        Fn<String, Point> privateCtor = Point::new;
        out.add(privateCtor.apply("xyz").toString());
        Fn<String, StringBuilder> jdkCtor = StringBuilder::new;
        out.add(jdkCtor.apply("sb").reverse().toString());
        Fn<Integer, int[]> array = int[]::new;
        out.add(String.valueOf(array.apply(4).length));
        Fn<Integer, String[][]> array2 = String[][]::new;
        out.add(String.valueOf(array2.apply(2).length));
        out.add(new Sub().both());
        Sup<List<String>> listCtor = ArrayList::new;
        out.add(listCtor.get().toString());
        Fn<Object, String> objToString = Object::toString;
        out.add(objToString.apply(7));
        Fn<CharSequence, Integer> iface = CharSequence::length;
        out.add(String.valueOf(iface.apply("seven")));
        return String.join(",", out);
    }
}
