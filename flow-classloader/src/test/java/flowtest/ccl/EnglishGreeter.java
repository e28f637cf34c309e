package flowtest.ccl;

/** The provider of {@link Greeter} named in {@code META-INF/services}. */
public class EnglishGreeter implements Greeter {
    @Override
    public String greet() {
        return "hello";
    }
}
