package flowtest.conformance.lambdas;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/** References to interface static, default and private methods, and lambdas declared in an interface. */
public final class InterfaceMethodReferences implements Callable<Object> {

    interface Shape {
        int size();

        static String describe(int n) throws Exception {
            return "size " + Async.later(n).get();
        }

        default String label() throws Exception {
            return Async.later("shape").get();
        }

        private String secret() {
            return "secret-" + size();
        }

        private String slowSecret() throws Exception {
            return "slow-" + Async.later(size()).get();
        }

        default String viaReferences() throws Exception {
            Sup<String> a = this::secret;
            Sup<String> b = this::slowSecret;
            Sup<String> c = () -> label() + ":" + Async.later(size()).get();
            Fn<Integer, String> d = Shape::describe;
            return a.get() + "," + b.get() + "," + c.get() + "," + d.apply(size());
        }
    }

    static final class Square implements Shape {
        @Override
        public int size() {
            return 4;
        }

        @Override
        public String label() throws Exception {
            return Async.later("square").get();
        }

        String superLabel() throws Exception {
            Sup<String> s = Shape.super::label;
            return s.get();
        }
    }

    @Override
    public Object call() throws Exception {
        Shape s = new Square();
        Fn<Shape, String> label = Shape::label;
        Fn<Shape, Integer> size = Shape::size;
        return s.viaReferences() + "," + label.apply(s) + "," + size.apply(s) + "," + new Square().superLabel();
    }
}
